import { isPlaceholder } from "./placeholder.js";
import { isSecretKeyName } from "./secret-key-name.js";
import type { SecretFinding } from "./secret-types.js";

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
 * is always taken.
 */
export function findPasswordAssignments(text: string): SecretFinding[] {
  const assignment =
    /(?<![A-Za-z0-9_.$-])(?<dashes>--?)?(?<key>[A-Za-z_][A-Za-z0-9_.-]{0,79})\\?["']?(?:(?<spaced>[ \t]*)(?<sep>=>|:=|=(?!=)|:(?!:))[ \t]*|(?<space>[ \t]+))/g;
  const findings: SecretFinding[] = [];
  for (let match = assignment.exec(text); match !== null; match = assignment.exec(text)) {
    const { dashes, key = "", spaced, sep, space } = match.groups ?? {};
    const isFlag = dashes !== undefined;
    if (space !== undefined && !isFlag) continue;
    if (!isSecretKeyName(key, isFlag)) continue;
    const value = readValue(text, assignment.lastIndex);
    if (value === undefined) continue;
    // In a declaration (`const TOKEN = /.../`) only a string literal can be a hard-coded secret;
    // anything else is an expression.
    if (!value.quoted && DECLARATION.test(text.slice(Math.max(0, match.index - 24), match.index))) continue;
    const form: Form = space !== undefined ? "flag" : sep === "=" && spaced === "" ? "strong" : "weak";
    if (!acceptValue(text, key, value, form)) continue;
    findings.push({ type: "password-assignment", start: value.start, end: value.end });
    // Keys inside a taken value (`password=token=x`) are part of the secret, not assignments.
    assignment.lastIndex = Math.max(assignment.lastIndex, value.end);
  }
  return findings;
}

type Form = "strong" | "weak" | "flag";

const DECLARATION = /(?:^|[\s;({])(?:const|let|var|val|final|readonly|static|private|public|protected)[ \t]+$/;

interface Value {
  start: number;
  end: number;
  quoted: boolean;
}

// Long enough for any real credential; a cap keeps one unterminated quote from eating a file.
const MAX_VALUE = 1024;

function readValue(text: string, from: number): Value | undefined {
  const escapedQuote = text[from] === "\\" && (text[from + 1] === '"' || text[from + 1] === "'");
  const quote = escapedQuote ? text[from + 1] : text[from];
  if (quote === '"' || quote === "'" || quote === "`") {
    const start = from + (escapedQuote ? 2 : 1);
    const close = findClosingQuote(text, start, quote, escapedQuote);
    if (close !== undefined) return close > start ? { start, end: close, quoted: true } : undefined;
    return readBare(text, start);
  }
  return readBare(text, from);
}

function findClosingQuote(text: string, start: number, quote: string, escaped: boolean): number | undefined {
  const limit = Math.min(text.length, start + MAX_VALUE);
  for (let i = start; i < limit; i += 1) {
    const c = text[i];
    if (c === "\n" || c === "\r") return undefined;
    if (c === "\\") {
      if (escaped && text[i + 1] === quote) return i;
      i += 1;
      continue;
    }
    if (c === quote && !escaped) return i;
  }
  return undefined;
}

// A bare value ends at whitespace, a quote, a separator of the surrounding syntax (`;` in
// connection strings, `&` in query strings, `,` in flow maps and key=value lists) or an escaped
// line break of JSON-encoded text. Sentence punctuation after it is not part of it.
function readBare(text: string, start: number): Value | undefined {
  // {0,1024}: MAX_VALUE.
  const bare = /(?:[^\s"'`;&,\\]|\\(?!["'nrt])){0,1024}/y;
  bare.lastIndex = start;
  let end = start + (bare.exec(text)?.[0].length ?? 0);
  while (end > start && /[.:!?)\]}]/.test(text[end - 1] as string)) end -= 1;
  return end > start ? { start, end, quoted: false } : undefined;
}

// Words that fill a secret's slot in type annotations, schemas and null checks.
const NON_VALUES = new Set([
  "string", "str", "number", "int", "integer", "boolean", "bool", "any", "unknown", "object",
  "null", "nil", "none", "undefined", "true", "false", "required", "optional", "empty", "redacted",
]);

// Where the secret comes from, not the secret: `process.env.X`, `req.body.password`, `getToken()`.
const CODE_REFERENCE =
  /^(?:(?:process\.env|import\.meta\.env|os\.environ|env|ENV|secrets|vars|config|settings|req|request|ctx|this|self|args|opts|options|params|props)[.[]|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\()/;

function acceptValue(text: string, key: string, value: Value, form: Form): boolean {
  const raw = text.slice(value.start, value.end);
  if (raw.trim() === "" || isPlaceholder(raw) || NON_VALUES.has(raw.toLowerCase())) return false;
  // LLM and lexer tokens are counted: `MAX_OUTPUT_TOKEN=4096`, `CHARS_PER_TOKEN = 4`.
  if (/^\d+$/.test(raw) && /token$/i.test(key)) return false;
  if (value.quoted) return true;
  // `--token --verbose`: the flag has no value here, the next flag follows.
  if (form === "flag" && raw.startsWith("-")) return false;
  if (CODE_REFERENCE.test(raw) || isSecretFieldAccess(raw) || /^\/.+\/[a-z]*$/.test(raw)) return false;
  if (form === "strong" || !/^[A-Za-z]+$/.test(raw)) return true;
  return endsLine(text, value.end);
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
