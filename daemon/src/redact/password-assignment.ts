import { isPlaceholder } from "./placeholder.js";
import { isSecretKeyName, type SecretKeyVerdict, secretKeyVerdict } from "./secret-key-name.js";
import type { SecretFinding } from "./secret-types.js";
import { readSecretValue, type SecretValue } from "./secret-value.js";

/**
 * Values assigned to a key that names a secret (see `isSecretKeyName`), in env (`DB_PASSWORD=x`),
 * INI (`password = x`), YAML (`token: x`), JSON (`"secret": "x"`), connection-string
 * (`Password=x;`), query-string (`?token=x&`) and CLI-flag (`--api-key x`, `--password=x`)
 * forms. The key stays and the value goes.
 *
 * Separators differ in how sure they are. `=` directly after the key is an assignment. A colon,
 * a spaced `=`, `=>` and a flag's space also occur in prose and code (`Token: see below`,
 * `const token = await f()`, `token: string`), so after them a bare word is taken only when it
 * ends the line, as a YAML or INI value does; a value with a digit or a symbol, or a quoted one,
 * is always taken. In a sentence (`the wifi password is x`, `pw was x`) only a quoted value or
 * one that looks like a password is taken, see `looksLikeStatedPassword`.
 */
export function findPasswordAssignments(text: string): SecretFinding[] {
  const assignment =
    /(?<![A-Za-z0-9_.$-])(?<dashes>--?)?(?<key>[A-Za-z_][A-Za-z0-9_.-]{0,79})\\?["']?(?:(?<spaced>[ \t]*)(?<sep>=>|:=|=(?!=)|:(?!:))[ \t]*|(?<prose>[ \t]+(?:is|was):?[ \t]+)|(?<space>[ \t]+))/g;
  const findings: SecretFinding[] = [];
  for (let match = assignment.exec(text); match !== null; match = assignment.exec(text)) {
    const { dashes, key = "", spaced, sep, prose, space } = match.groups ?? {};
    const isFlag = dashes !== undefined;
    if ((space !== undefined && !isFlag) || (prose !== undefined && isFlag)) continue;
    const verdict = secretKeyVerdict(key, isFlag);
    if (verdict === "none") continue;
    const value = readSecretValue(text, assignment.lastIndex, "assignment");
    if (value === undefined) continue;
    // In a declaration (`const TOKEN = /.../`) only a string literal can be a hard-coded secret;
    // anything else is an expression.
    if (!value.quoted && DECLARATION.test(text.slice(Math.max(0, match.index - 24), match.index))) continue;
    const form: Form = prose !== undefined ? "prose" : space !== undefined ? "flag" : sep === "=" && spaced === "" ? "strong" : "weak";
    if (!acceptValue(text, key, value, form, verdict)) continue;
    findings.push({ type: "password-assignment", start: value.start, end: value.end });
    // Keys inside a taken value (`password=token=x`) are part of the secret, not assignments.
    assignment.lastIndex = Math.max(assignment.lastIndex, value.end);
  }
  return findings;
}

type Form = "strong" | "weak" | "flag" | "prose";

const DECLARATION = /(?:^|[\s;({])(?:const|let|var|val|final|readonly|static|private|public|protected)[ \t]+$/;

// Words that fill a secret's slot in type annotations, schemas and null checks.
const NON_VALUES = new Set([
  "string", "str", "number", "int", "integer", "boolean", "bool", "any", "unknown", "object",
  "null", "nil", "none", "undefined", "true", "false", "required", "optional", "empty", "redacted",
]);

// Where the secret comes from, not the secret: `process.env.X`, `req.body.password`, `getToken()`.
const CODE_REFERENCE =
  /^(?:(?:process\.env|import\.meta\.env|os\.environ|env|ENV|secrets|vars|config|settings|req|request|ctx|this|self|args|opts|options|params|props)[.[]|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\()/;

function acceptValue(text: string, key: string, value: SecretValue, form: Form, verdict: SecretKeyVerdict): boolean {
  const raw = text.slice(value.start, value.end);
  if (raw.trim() === "" || isPlaceholder(raw) || NON_VALUES.has(raw.toLowerCase())) return false;
  // `PWD=/home/maya`, `"pass": 22`, `bypass=cache`: under these keys only a password is one.
  // Flags (`-storepass X`) and `pass:X` (openssl's form) are left to the command-line forms.
  const opensslPass = /^pass$/i.test(key) && text[value.start - 1] === ":";
  if (verdict === "password-like") return form !== "flag" && !opensslPass && /[A-Za-z]/.test(raw) && looksLikeStatedPassword(raw);
  // LLM and lexer tokens are counted: `MAX_OUTPUT_TOKEN=4096`, `CHARS_PER_TOKEN = 4`.
  if (/^\d+$/.test(raw) && /token$/i.test(key)) return false;
  if (value.quoted) return true;
  // `--token --verbose`: the flag has no value here, the next flag follows.
  if (form === "flag" && raw.startsWith("-")) return false;
  if (CODE_REFERENCE.test(raw) || isSecretFieldAccess(raw) || /^\/.+\/[a-z]*$/.test(raw)) return false;
  if (form === "prose") return looksLikeStatedPassword(raw);
  if (form === "strong" || !/^[A-Za-z]+$/.test(raw)) return true;
  return endsLine(text, value.end);
}

// "The password is required", "the token is SHA-256 signed", "the secret is stored hashed": in a
// sentence the word after "is" is mostly not the secret. A stated one ("the wifi password is
// hunter2") has a digit inside a word and is not a path or a name such as SHA-256 or UTF-8.
// Values under keys that may be something else (PWD, pass) are judged the same way, and must
// hold a letter too (`Monthly pass: €68-130`).
function looksLikeStatedPassword(raw: string): boolean {
  if (raw.length < 6 || !/\d/.test(raw) || /^[/~.]/.test(raw)) return false;
  return !raw.split(/[-.]/).every((segment) => /^(?:[A-Za-z]*|\d*)$/.test(segment));
}

// `token: row.token`, `password: user.password`: copying a field that holds the secret.
function isSecretFieldAccess(raw: string): boolean {
  if (!/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(raw)) return false;
  return isSecretKeyName(raw.slice(raw.lastIndexOf(".") + 1));
}

// Closing punctuation, a `# comment`, then a line break: real or escaped, as in JSON-encoded text.
function endsLine(text: string, from: number): boolean {
  const rest = /[ \t,;)\]}'"]*(?:[ \t]#[^\n\\]*)?(?:\\[nr"]|\r|\n|$)/y;
  rest.lastIndex = from;
  return rest.test(text);
}
