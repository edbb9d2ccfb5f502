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

/**
 * True when `key` ends in a secret word. `isFlag` is set for command-line flags (`--pass`),
 * where even the short words are unambiguous.
 */
export function isSecretKeyName(key: string, isFlag = false): boolean {
  if (SECRET_ENV_NAMES.has(key.toLowerCase())) return true;
  const words = keyWords(key);
  const last = words[words.length - 1];
  const before = words[words.length - 2];
  if (last === undefined) return false;
  if (last === "key") return before !== undefined && KEY_QUALIFIERS.has(before);
  if (!SECRET_WORDS.has(last)) return false;
  // PWD and OLDPWD are the shell's working directories, printed by every `env` dump.
  if (last === "pwd") return words.length > 1 && before !== "old";
  // A bare "pass" is a test count in most tool output (`"pass": 22`); DB_PASS is not.
  if (last === "pass") return isFlag || words.length > 1;
  if (last === "token") return before === undefined || !NOT_SECRET_TOKENS.has(before);
  return true;
}
