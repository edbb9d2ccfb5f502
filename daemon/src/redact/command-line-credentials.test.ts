import { describe, expect, it } from "vitest";
import { findCommandLineCredentials } from "./command-line-credentials.js";
import { COMMAND_LINE_FORMS } from "./command-line-forms.js";

const secrets = (text: string) => findCommandLineCredentials(text).map((f) => text.slice(f.start, f.end));

describe("findCommandLineCredentials", () => {
  it("takes the value glued to, spaced after or joined to an option", () => {
    expect(secrets("mysql -uroot -pTq7vR2 acme")).toEqual(["Tq7vR2"]);
    expect(secrets("sshpass -p Vn6xK3 ssh web1")).toEqual(["Vn6xK3"]);
    expect(secrets("curl --user=deploy:Bz6nL4 https://ci")).toEqual(["Bz6nL4"]);
    expect(secrets("xfreerdp /u:maya /p:Wt5kQ8 /v:win01")).toEqual(["Wt5kQ8"]);
  });

  it("takes only the password of user:password, user%password and user,password", () => {
    expect(secrets("curl -u admin:Kp9wX2 https://api")).toEqual(["Kp9wX2"]);
    expect(secrets("smbclient //nas/b -U maya%Wz3qK8")).toEqual(["Wz3qK8"]);
    expect(secrets("lftp -u maya,Hn4zQ7 sftp://files")).toEqual(["Hn4zQ7"]);
    expect(secrets("sqlplus scott/Tg7wN4@db:1521/ORCL")).toEqual(["Tg7wN4"]);
  });

  it("reads an option's meaning from its program: -p is a port for ssh and docker run", () => {
    expect(secrets("ssh -p 22 web1; docker run -p 8080:80 nginx; psql -p 5433")).toEqual([]);
    expect(secrets("docker login -u maya -p Pq2mV9 registry")).toEqual(["Pq2mV9"]);
    expect(secrets("redis-cli -p 6380 -a Cw9vT2 ping")).toEqual(["Cw9vT2"]);
  });

  it("leaves an option that prompts alone", () => {
    expect(secrets("mysql -u root -p acme")).toEqual([]);
    expect(secrets("curl -u admin https://api")).toEqual([]);
    expect(secrets("mongosh -u admin -p --quiet")).toEqual([]);
    expect(secrets("htpasswd -c .htpasswd admin")).toEqual([]);
    expect(secrets("rabbitmqctl add_user ci-worker")).toEqual([]);
  });

  it("takes a positional password: htpasswd -b's last argument, the word after a subcommand", () => {
    expect(secrets("htpasswd -bc /etc/nginx/htpasswd admin Hq4zW7")).toEqual(["Hq4zW7"]);
    expect(secrets("htpasswd -nbB admin Sv3kP8 > users.htpasswd")).toEqual(["Sv3kP8"]);
    expect(secrets("mysqladmin -u root password Nw5rT8")).toEqual(["Nw5rT8"]);
    expect(secrets("rabbitmqctl add_user ci Kv2tZ9 2>&1 | tee log")).toEqual(["Kv2tZ9"]);
  });

  it("requires openssl's pass: prefix", () => {
    expect(secrets("openssl rsa -passin pass:Tk9mW4 -passout env:OUT_PASS")).toEqual(["Tk9mW4"]);
    expect(secrets("openssl rsa -passin file:pw.txt")).toEqual([]);
  });

  it("leaves variable references and masks in a password's place alone", () => {
    expect(secrets('mysql -p"$MYSQL_PWD" acme; curl -u "$U:$P" x; sshpass -p **** ssh h; docker login -p $TOKEN r')).toEqual([]);
  });

  it("reads quoted values, also inside JSON-escaped text", () => {
    expect(secrets("sshpass -p 'two words' ssh web1")).toEqual(["two words"]);
    expect(secrets(String.raw`{"command":"sshpass -p \"Vn6 xK3\" ssh web1"}`)).toEqual(["Vn6 xK3"]);
    expect(secrets(String.raw`{"command":"mysql -pTq7vR2\"}`)).toEqual(["Tq7vR2"]);
  });

  it("ends a command at a line break, a JSON \\n, ; | and &&, so a later word is not its value", () => {
    expect(secrets("sshpass -p\nls")).toEqual([]);
    expect(secrets(String.raw`htpasswd -b\nls admin Hq4zW7`)).toEqual([]);
    expect(secrets("docker login && ls -p Pq2mV9")).toEqual([]);
    expect(secrets("cd /srv;mysql -pTq7vR2 acme")).toEqual(["Tq7vR2"]);
  });

  it("ends a quoted command at its closing quote, so the words after it are not its last argument", () => {
    expect(secrets('cwd must be absolute, got "htpasswd -b f admin Hq4zW7": give a directory')).toEqual(["Hq4zW7"]);
    expect(secrets('{"command":"rabbitmqctl add_user ci Kv2tZ9","description":"add the CI user"}')).toEqual(["Kv2tZ9"]);
  });

  it("recognises a program by its path and in another program's command", () => {
    expect(secrets("/usr/local/bin/mysql -pTq7vR2")).toEqual(["Tq7vR2"]);
    expect(secrets("sudo -u postgres PGHOST=db mongosh -p Dn8qV3")).toEqual(["Dn8qV3"]);
    expect(secrets(String.raw`C:\tools\PsExec.exe \\win01 -u maya -p Kz3vT8 cmd`)).toEqual(["Kz3vT8"]);
  });

  it("knows at least 25 forms", () => {
    expect(COMMAND_LINE_FORMS.length).toBeGreaterThanOrEqual(25);
  });
});
