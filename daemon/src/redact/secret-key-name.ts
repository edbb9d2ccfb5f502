/**
 * Whether a key name (an env variable, an INI/YAML/JSON key, a CLI flag, an object property)
 * names a secret, so that its value must be redacted whatever it looks like. The key must END
 * in a secret word: `DB_PASSWORD`, `clientSecret` and `--api-key` do, while `max_tokens`,
 * `token_url` and `password_min_length` do not, because their values are counts and URLs that
 * memd stores on purpose.
 */

const SECRET_WORDS = new Set(["password", "passwd", "passphrase", "passcode", "pwd", "pw", "pass", "secret", "token", "apikey"]);

// Environment variables that programs read a password from, though their names do not end in a
// secret word: libpq, sshpass, redis-cli, Consul (user:password).
const SECRET_ENV_NAMES = new Set(["pgpassword", "sshpass", "rediscli_auth", "consul_http_auth"]);

// "key" alone is too common (`sort key`, `key: value`); these qualifiers make it a credential.
const KEY_QUALIFIERS = new Set(["api", "secret", "private", "access", "auth", "encryption", "signing", "master", "client"]);

// Cursors in paginated APIs (memd's own included) are tokens in name only.
const NOT_SECRET_TOKENS = new Set(["page", "next", "continuation", "sync", "cancellation"]);

/** Splits `clientSecret`, `X-Api-Key`, `spring.datasource.password` into lower-case words. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

// Secret words that are also found glued to the word before them (`mypassword`, `DBPASSWORD`,
// `clientsecret`, `rootpw`), longest first so that `passwd` is not read as `pw`. Where the glued
// word is also the end of ordinary words (by-pass, com-pass) the value must look like a password.
const GLUED_WORDS = ["password", "passphrase", "passcode", "passwd", "apikey", "secret", "token", "pass", "pwd", "pw"];
const GLUED_NEEDS_PASSWORD_LOOK = new Set(["pass", "pwd", "pw"]);

/**
 * How sure a key name makes memd that its value is a secret: `secret` when the key says so,
 * `password-like` when the key may also be something else (the shell's `PWD`, test counts under
 * `pass`, `bypass`), so that only a value that looks like a password is one, and `none`.
 */
export type SecretKeyVerdict = "secret" | "password-like" | "none";

/**
 * Whether `key` ends in a secret word, also one glued to the word before it. `isFlag` is set
 * for command-line flags (`--pass`), where even the short words are unambiguous.
 */
export function secretKeyVerdict(key: string, isFlag = false): SecretKeyVerdict {
  const verdict = verdictOf(key, isFlag);
  if (verdict !== "none" || !/[013457]/.test(key)) return verdict;
  // Digits written for the letters they look like (`passw0rd`, `PA55WORD`, `t0ken`): read as those letters.
  const upper = !/[a-z]/.test(key);
  return verdictOf(key.replace(/[013457]/g, (digit) => (upper ? (LEET[digit] ?? digit).toUpperCase() : (LEET[digit] ?? digit))), isFlag);
}

function verdictOf(key: string, isFlag: boolean): SecretKeyVerdict {
  if (SECRET_ENV_NAMES.has(key.toLowerCase())) return "secret";
  const { words, glued } = splitGlued(keyWords(key));
  const last = words[words.length - 1];
  const before = words[words.length - 2];
  if (last === undefined) return "none";
  if (last === "key") return before !== undefined && KEY_QUALIFIERS.has(before) ? "secret" : "none";
  if (!SECRET_WORDS.has(last)) return "none";
  if (glued && GLUED_NEEDS_PASSWORD_LOOK.has(last)) return before?.endsWith("old") === true ? "none" : "password-like";
  // PWD and OLDPWD are the shell's working directories, printed by every `env` dump: a PWD
  // alone is a password only when its value is not a path and looks like one.
  if (last === "pwd") return words.length > 1 ? (before === "old" ? "none" : "secret") : "password-like";
  // A bare "pass" is a test count in most tool output (`"pass": 22`); DB_PASS is not.
  if (last === "pass") return isFlag || words.length > 1 ? "secret" : "password-like";
  if (last === "token") return before !== undefined && [...NOT_SECRET_TOKENS].some((word) => before.endsWith(word)) ? "none" : "secret";
  return "secret";
}

/** True when `key` surely names a secret (see secretKeyVerdict). */
export function isSecretKeyName(key: string, isFlag = false): boolean {
  return secretKeyVerdict(key, isFlag) === "secret";
}

// The letters digits are written for in a leet-spelt key.
const LEET: Readonly<Record<string, string>> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t" };

/**
 * The key's words with a secret word glued to the end of the last one split off
 * (`mypassword` -> my, password; `awssecretaccesskey` -> awssecret, access, key).
 */
function splitGlued(words: string[]): { words: string[]; glued: boolean } {
  const last = words[words.length - 1];
  if (last === undefined || SECRET_WORDS.has(last) || last === "key") return { words, glued: false };
  const head = words.slice(0, -1);
  const suffix = GLUED_WORDS.find((word) => last.length > word.length && last.endsWith(word));
  if (suffix !== undefined) return { words: [...head, last.slice(0, -suffix.length), suffix], glued: true };
  if (last.endsWith("key")) {
    const rest = last.slice(0, -3);
    const qualifier = [...KEY_QUALIFIERS].find((word) => rest.endsWith(word));
    if (qualifier !== undefined) return { words: [...head, rest.slice(0, -qualifier.length), qualifier, "key"].filter((w) => w !== ""), glued: true };
  }
  return { words, glued: false };
}
