/**
 * The command-line options through which programs take a password, as data: which program,
 * which option, how the value is attached, and which part of it is the secret. Only forms the
 * generic `--password x` rule (password-assignment.ts) cannot know belong here: short options
 * whose meaning depends on the program (`-p` is a password for mysql and sshpass but a port for
 * ssh and `docker run`), `user:password` pairs, and positional passwords. Sources: each
 * program's man page or `--help`.
 */

/**
 * How an option's value is attached: `-pX` (glued), `-p X` (spaced), `--user=X` (equals),
 * `/p:X` (colon, Windows style).
 */
export type Attach = "glued" | "spaced" | "equals" | "colon";

/** Which part of a value is the secret; by default all of it. */
export interface SecretPart {
  /** The secret follows the first occurrence of this (`user:password`); without it there is none. */
  after: string;
  /** `after` must open the value (`pass:X`, not `env:VAR`). */
  atStart?: boolean;
  /** The secret ends at the last occurrence of this, if any (`user/password@db`). */
  before?: string;
}

export interface CommandLineForm {
  /** Program names, as typed or as the last part of a path (`/usr/bin/mysql`, `plink.exe`). */
  programs: readonly string[];
  /** A word that must come earlier on the command line: `login` in `docker login -p X`. */
  subcommand?: string;
  /**
   * The option that carries the value. Without one the value is an argument: the word after
   * `subcommand` (or after the program), or the command's last word.
   */
  option?: string;
  attach?: readonly Attach[];
  /** `option` may sit in a cluster of single-letter flags: `htpasswd -bc`. */
  inCluster?: boolean;
  /** An argument that is the secret: the next word, or the command's last word. */
  argument?: "next" | "last";
  /** Words a `last` argument needs after its trigger, so that `htpasswd -b file user` keeps `user`. */
  minArguments?: number;
  secret?: SecretPart;
}

const MYSQL = ["mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlpump", "mariadb", "mariadb-dump", "mariadb-admin"];
const MONGO = ["mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat", "mongotop"];
const REGISTRY_LOGIN = ["docker", "podman", "nerdctl", "buildah", "skopeo", "oc", "cf", "helm"];
const LDAP = ["ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare", "ldapmodrdn"];
const SAMBA = ["smbclient", "rpcclient", "smbcacls", "smbget", "smbmap"];
const SEVEN_ZIP = ["7z", "7za", "7zz", "7zr"];
const SQL_SERVER = ["sqlcmd", "bcp", "osql"];
const JAVA_KEYSTORE = ["keytool", "jarsigner"];
const USER_PASSWORD: SecretPart = { after: ":" };
const SPACED_OR_GLUED: readonly Attach[] = ["spaced", "glued"];

export const COMMAND_LINE_FORMS: readonly CommandLineForm[] = [
  // `mysql -p X` prompts and opens database X, so only the glued form carries a password.
  { programs: MYSQL, option: "-p", attach: ["glued"] },
  { programs: ["mysqladmin"], subcommand: "password", argument: "next" },
  { programs: ["curl"], option: "-u", attach: SPACED_OR_GLUED, secret: USER_PASSWORD },
  { programs: ["curl"], option: "--user", attach: ["spaced", "equals"], secret: USER_PASSWORD },
  { programs: ["curl"], option: "-U", attach: SPACED_OR_GLUED, secret: USER_PASSWORD },
  { programs: ["curl"], option: "--proxy-user", attach: ["spaced", "equals"], secret: USER_PASSWORD },
  { programs: ["sshpass"], option: "-p", attach: SPACED_OR_GLUED },
  { programs: REGISTRY_LOGIN, subcommand: "login", option: "-p", attach: SPACED_OR_GLUED },
  { programs: ["cf"], subcommand: "auth", argument: "last", minArguments: 2 },
  { programs: ["skopeo", "buildah", "podman"], option: "--creds", attach: ["spaced", "equals"], secret: USER_PASSWORD },
  { programs: ["skopeo"], option: "--src-creds", attach: ["spaced", "equals"], secret: USER_PASSWORD },
  { programs: ["skopeo"], option: "--dest-creds", attach: ["spaced", "equals"], secret: USER_PASSWORD },
  { programs: ["az"], subcommand: "login", option: "-p", attach: SPACED_OR_GLUED },
  // redis-cli's -p is the port; -a is the password.
  { programs: ["redis-cli"], option: "-a", attach: SPACED_OR_GLUED },
  // htpasswd -b takes the password from the command line, as its last argument.
  { programs: ["htpasswd"], option: "-b", inCluster: true, argument: "last", minArguments: 2 },
  { programs: MONGO, option: "-p", attach: SPACED_OR_GLUED },
  { programs: SAMBA, option: "-U", attach: SPACED_OR_GLUED, secret: { after: "%" } },
  { programs: SAMBA, option: "--user", attach: ["spaced", "equals"], secret: { after: "%" } },
  // `env:VAR`, `file:path`, `fd:N` and `stdin` say where the password is; `pass:X` is the password.
  ...["-passin", "-passout", "-pass"].map((option) => ({ programs: ["openssl"], option, attach: ["spaced"] as const, secret: { after: "pass:", atStart: true } })),
  { programs: ["openssl"], subcommand: "enc", option: "-k", attach: ["spaced"] },
  { programs: LDAP, option: "-w", attach: SPACED_OR_GLUED },
  { programs: ["ldappasswd"], option: "-s", attach: SPACED_OR_GLUED },
  { programs: SEVEN_ZIP, option: "-p", attach: ["glued"] },
  { programs: ["zip", "unzip", "zipcloak", "funzip"], option: "-P", attach: SPACED_OR_GLUED },
  { programs: SQL_SERVER, option: "-P", attach: SPACED_OR_GLUED },
  { programs: ["lftp"], option: "-u", attach: ["spaced"], secret: { after: "," } },
  { programs: ["ncftp", "ncftpget", "ncftpput"], option: "-p", attach: ["spaced"] },
  { programs: ["ssh-keygen"], option: "-N", attach: SPACED_OR_GLUED },
  { programs: ["ssh-keygen"], option: "-P", attach: SPACED_OR_GLUED },
  { programs: ["psexec", "psexec64"], option: "-p", attach: ["spaced"] },
  { programs: ["mosquitto_pub", "mosquitto_sub"], option: "-P", attach: ["spaced"] },
  { programs: ["xfreerdp", "wlfreerdp", "sdl-freerdp"], option: "/p", attach: ["colon"] },
  { programs: ["rdesktop"], option: "-p", attach: ["spaced"] },
  ...["-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass", "-destkeypass", "-new"].map(
    (option) => ({ programs: JAVA_KEYSTORE, option, attach: ["spaced"] as const }),
  ),
  { programs: ["rabbitmqctl"], subcommand: "add_user", argument: "last", minArguments: 2 },
  { programs: ["rabbitmqctl"], subcommand: "change_password", argument: "last", minArguments: 2 },
  // `vault login` with no argument prompts; `vault login -method=userpass` takes key=value pairs.
  { programs: ["vault"], subcommand: "login", argument: "next" },
  // `mc alias set NAME URL ACCESS_KEY SECRET_KEY`.
  { programs: ["mc"], subcommand: "set", argument: "last", minArguments: 4 },
  // `sqlplus scott/tiger@orcl`: the password sits between the first `/` and the last `@`.
  { programs: ["sqlplus"], argument: "next", secret: { after: "/", before: "@" } },
];
