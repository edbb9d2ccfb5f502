/**
 * Entity extraction for the recall graph: the named things a memory or a query is about —
 * files, error codes, tickets, commands, packages, environment variables, code identifiers and
 * product names. Two memories that share an entity are linked, so precision matters more than
 * recall: an ordinary word taken for an entity would link everything to everything. Every
 * pattern below therefore asks for a shape prose does not have (a path, a code, an underscore,
 * a capital inside a word) or for a word list that says what the shape means.
 */

export type EntityType =
  | "concept" | "file" | "url" | "error" | "ticket" | "command" | "package" | "env" | "identifier" | "name";

/** One entity: a normalized, lower-case key and what sort of thing it is. */
export interface Entity {
  key: string;
  type: EntityType;
}

/** The fields of a memory that entities are taken from. */
export interface EntitySource {
  content: string;
  problem?: string;
  solution?: string;
  concepts?: readonly string[];
  files?: readonly string[];
}

/** Enough for the richest memory of the dev set (about 20) with room, few enough to bound the graph. */
export const MAX_ENTITIES = 32;

/**
 * The entities of a memory (its concepts and files first, as given, then what its text names)
 * or of a query string, deduplicated by key, at most `max`. Deterministic: the same input always
 * gives the same list in the same order.
 */
export function extractEntities(source: string | EntitySource, max = MAX_ENTITIES): Entity[] {
  const found = new Map<string, EntityType>();
  const add = (key: string, type: EntityType) => {
    const normalized = key.trim().toLowerCase().replace(/\s+/g, " ");
    if (normalized.length >= 2 && normalized.length <= 200 && !found.has(normalized)) found.set(normalized, type);
  };
  const fields = typeof source === "string" ? { content: source } : source;
  for (const concept of fields.concepts ?? []) add(concept, "concept");
  for (const file of fields.files ?? []) addPath(file, add);
  const text = [fields.content, fields.problem ?? "", fields.solution ?? ""].filter((t) => t !== "").join("\n");
  extractFromText(text, add);
  return [...found].slice(0, Math.max(0, max)).map(([key, type]) => ({ key, type }));
}

/**
 * The keys under which a query looks entities up: what `extractEntities` finds, plus the
 * query's word n-grams (1 to 3 words, none starting or ending on a stopword). People type
 * queries in lower case ("econnreset from the stripe client"), where no capital marks a name;
 * the n-grams let the store match them against the keys memories were saved with.
 */
export function queryEntityKeys(query: string, max = 64): string[] {
  const keys = new Set(extractEntities(query).map((e) => e.key));
  const words = query.toLowerCase().match(/[a-z0-9@~][\w@./:+-]*[\w+]|[a-z0-9]/g) ?? [];
  for (let n = 1; n <= 3; n += 1) {
    for (let i = 0; i + n <= words.length; i += 1) {
      const gram = words.slice(i, i + n);
      const first = gram[0] as string;
      const last = gram[n - 1] as string;
      if (STOPWORDS.has(first) || STOPWORDS.has(last)) continue;
      if (n === 1 && (first.length < 3 || /^\d+$/.test(first))) continue;
      keys.add(gram.join(" "));
    }
  }
  return [...keys].slice(0, max);
}

type Add = (key: string, type: EntityType) => void;

function extractFromText(original: string, add: Add): void {
  // Each matcher blanks what it took, so that later, looser matchers never see parts of it
  // (the "PAY" of PAY-1423, the "session" of src/auth/session.ts).
  let text = original;
  const take = (pattern: RegExp, handle: (m: RegExpMatchArray) => boolean) => {
    let masked = text;
    for (const m of text.matchAll(pattern)) {
      if (handle(m) && m.index !== undefined) {
        masked = masked.slice(0, m.index) + " ".repeat(m[0].length) + masked.slice(m.index + m[0].length);
      }
    }
    text = masked;
  };

  take(/\b[a-z][a-z0-9+.-]*:\/\/[^\s`'"()]+/gi, (m) => (add(trimEnd(m[0]).replace(/\/$/, ""), "url"), true));
  // Commands are read first but blank nothing: a command's path or package is an entity too.
  for (const m of original.matchAll(/`([^`\n]{2,120})`/g)) addBacktickCommand(m[1] as string, add);
  for (const m of original.matchAll(CLI_IN_PROSE)) addProseCommand(m, add);
  take(/(?<![\w@/])@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*/gi, (m) => (add(trimEnd(m[0]).replace(/(?<=.)@[\d^~].*$/, ""), "package"), true));
  take(/\b([a-z][\w.-]*)@\d[\w.-]*/gi, (m) => (add(m[1] as string, "package"), true));
  for (const m of original.matchAll(INSTALL)) {
    for (const word of (m[1] as string).trim().split(/\s+/)) {
      if (word.startsWith("-")) continue;
      const name = trimEnd(word);
      if (STOPWORDS.has(name.toLowerCase()) || !/^[@a-z][\w@./-]*$/i.test(name)) break;
      add(name, "package");
      if (name !== word) break;
    }
  }
  take(/\bCVE-\d{4}-\d{4,}\b/g, (m) => (add(m[0], "ticket"), true));
  take(/\b(?:ORA|TNS|PLS)-\d{5}\b/g, (m) => (add(m[0], "error"), true));
  take(/\bSQLSTATE[ :]+([0-9A-Z]{5})\b/g, (m) => (add(m[1] as string, "error"), true));
  take(/\b([A-Z][A-Z0-9]{1,9})-(\d{1,6})\b(?!\.\d)/g, (m) => {
    if (NOT_TICKET_PREFIXES.has(m[1] as string)) return false;
    add(m[0], "ticket");
    return true;
  });
  take(/(?:^|(?<=[\s(`'"=,]))[~.\w@$<>{}*+-]*\/[\w.@$<>{}*+,=/-]*/g, (m) => isPath(trimEnd(m[0])) && (addPath(trimEnd(m[0]), add), true));
  take(/(?<![\w/.-])\.?[\w-]*[A-Za-z0-9_]\.[\w.]*[A-Za-z0-9]\b|(?<![\w/.-])\.[a-z][\w.-]*/g, (m) => isFileName(m[0]) && (add(m[0], "file"), true));
  take(/\bTS\d{4,5}\b/g, (m) => (add(m[0], "error"), true));
  take(/\bE[A-Z]{3,}\b|\bERR_[A-Z0-9_]+\b/g, (m) => (ERRNO.has(m[0]) || m[0].startsWith("ERR_")) && (add(m[0], "error"), true));
  take(HTTP_STATUS, (m) => (add(`http-${m[1] ?? m[2] ?? m[3]}`, "error"), true));
  take(/\bexit(?:ed)?(?: with)?(?: code| status)\s+(\d{1,3})\b/gi, (m) => (add(`exit-${m[1]}`, "error"), true));
  take(/\$?\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b(=?)/g, (m) => {
    const name = m[0].replace(/^\$|=$/g, "");
    add(name, name.startsWith("SQLITE_") ? "error" : m[0].startsWith("$") || m[1] === "=" || looksLikeEnvVar(name) ? "env" : "identifier");
    return true;
  });
  take(/\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b/g, (m) => isPackageName(m[0]) && (add(m[0], "package"), true));
  take(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (m) => (add(m[0], "identifier"), true));
  take(/\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(\))?/g, (m) => {
    const parts = m[0].replace(/\(\)$/, "").split(".");
    // "t.Run" is code; "e.g" and "U.S" are not.
    const codeLike = parts.every((p, i) => p.length >= 2 || (i === 0 && /^[A-Z][a-z]/.test(parts[1] ?? "")));
    return codeLike && !/^\d/.test(parts[1] ?? "") && (add(m[0].replace(/\(\)$/, ""), "identifier"), true);
  });
  take(/\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b/g, (m) => (add(m[0], "identifier"), true));
  extractNames(text, original, add);
}

/** Adds a path and, for a file, its base name: a query may name only "session.ts". */
function addPath(raw: string, add: Add): void {
  const path = raw.trim().replace(/^\.\//, "").replace(/(?:\/\*)+$/, "").replace(/\/+$/, "");
  if (path === "") return;
  add(path, "file");
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (base !== path && !base.includes("*") && isFileName(base)) add(base, "file");
}

function isPath(token: string): boolean {
  if (token.includes("//") || !/[a-z]/i.test(token)) return false;
  const segments = token.split("/").filter((s) => s !== "" && s !== "~" && s !== "." && s !== "..");
  if (segments.length === 0 || segments.some((s) => !/[a-z0-9*<]/i.test(s))) return false;
  const last = segments[segments.length - 1] as string;
  return (
    /^(?:\/|\.\.?\/|~\/)/.test(token) ||
    (token.endsWith("/") && segments.length >= 2) ||
    isFileName(last.replace(/^\*/, "x")) ||
    (SOURCE_ROOTS.has((segments[0] as string).toLowerCase()) && segments.length >= 2) ||
    (segments.length >= 3 && segments.some((s) => /[-_.\d]/.test(s)))
  );
}

function isFileName(token: string): boolean {
  if (KNOWN_FILES.has(token.toLowerCase()) || /^\.env(?:\.[\w-]+)?$/.test(token)) return true;
  const match = /^([\w.-]*[A-Za-z_][\w-]*)\.([A-Za-z0-9]{1,6})$/.exec(token);
  if (!match || !FILE_EXTENSIONS.has((match[2] as string).toLowerCase())) return false;
  // "Node.js" and "Next.js" are products, not files.
  return !(match[2] === "js" && /^[A-Z]/.test(match[1] as string));
}

function addBacktickCommand(span: string, add: Add): void {
  for (const part of span.split(/\s*(?:&&|\|\||[|;])\s*/)) {
    const words: string[] = [];
    for (const word of part.trim().split(/\s+/)) {
      if (words.length === 4 || /^-|[/=<>'"{}()$~]/.test(word)) break;
      words.push(word);
    }
    const first = words[0];
    // A single backticked word is a command only if it is a known CLI; a file or an
    // identifier in backticks is left to the other matchers.
    if (first === undefined || !/^[a-z][\w:.+-]*$/i.test(first) || SHELL_BUILTINS.has(first)) continue;
    if (words.length === 1 && !CLI_SUBCOMMANDS.has(first)) continue;
    add(words.join(" "), "command");
    if (words.length > 2) add(words.slice(0, 2).join(" "), "command");
  }
}

function addProseCommand(m: RegExpMatchArray, add: Add): void {
  const cli = (m[1] as string).toLowerCase();
  const sub = (m[2] as string).toLowerCase();
  const known = CLI_SUBCOMMANDS.get(cli);
  const isMakeTarget = cli === "make" && (sub.includes("-") || MAKE_TARGETS.has(sub));
  if (!isMakeTarget && !known?.has(sub)) return;
  add(`${cli} ${sub}`, "command");
  const next = m[3]?.toLowerCase();
  if (next !== undefined && known?.has(`${sub} ${next}`)) add(`${cli} ${sub} ${next}`, "command");
}

function isPackageName(token: string): boolean {
  const parts = token.split("-");
  return PACKAGE_PREFIXES.has(parts[0] as string) || PACKAGE_SUFFIXES.has(parts[parts.length - 1] as string);
}

function looksLikeEnvVar(name: string): boolean {
  const parts = name.split("_");
  return ENV_PREFIXES.has(parts[0] as string) || ENV_SUFFIXES.has(parts[parts.length - 1] as string);
}

interface WordToken {
  word: string;
  start: number;
  end: number;
  /** "Stripe's SEPA mandates" names two things, not one. */
  possessive: boolean;
}

/**
 * Proper names: runs of capitalized words ("AWS Secrets Manager", "Stripe", "PagerDuty").
 * A capital at the start of a sentence says nothing, so a sentence-initial word counts only if
 * the same word also appears capitalized mid-sentence.
 */
function extractNames(text: string, original: string, add: Add): void {
  const tokens: WordToken[] = [...text.matchAll(/(?<![\w'’-])[A-Za-z][A-Za-z0-9]*(?:['’-][A-Za-z0-9]+)*/g)].map((m) => {
    // "Stripe's" names Stripe; "Let's" stays whole.
    const possessive = /['’]s$/.test(m[0]) && !/^(?:let|it|that|what|there|here|he|she)['’]s$/i.test(m[0]);
    return {
      word: possessive ? m[0].slice(0, -2) : m[0],
      start: m.index ?? 0,
      end: (m.index ?? 0) + m[0].length,
      possessive,
    };
  });
  const isCapitalized = (w: string) => /^[A-Z]/.test(w) || /^[a-z]+[A-Z]/.test(w);
  const midSentence = new Set(
    tokens.filter((t) => isCapitalized(t.word) && !startsSentence(original, t.start)).map((t) => t.word),
  );
  let run: WordToken[] = [];
  const flush = () => {
    addNameRun(run.map((t) => t.word), add);
    run = [];
  };
  for (const token of tokens) {
    const previous = run[run.length - 1];
    if (previous && text.slice(previous.end, token.start) !== " ") flush();
    const usable =
      wordShape(token.word) !== "other" &&
      !NAME_STOPWORDS.has(token.word) &&
      !(startsSentence(original, token.start) && wordShape(token.word) === "title" && !midSentence.has(token.word));
    if (usable) run.push(token);
    else flush();
    if (usable && token.possessive) flush();
  }
  flush();
}

function addNameRun(run: readonly string[], add: Add): void {
  // "Terraform PRs" is about Terraform; a generic acronym at either end adds nothing.
  const words = run.map((w) => (/^[A-Z]{2,}s$/.test(w) ? w.slice(0, -1) : w));
  while (words.length > 0 && GENERIC_ACRONYMS.has(words[0] as string)) words.shift();
  while (words.length > 0 && GENERIC_ACRONYMS.has(words[words.length - 1] as string)) words.pop();
  if (words.length === 0) return;
  const shapes = words.map(wordShape);
  for (const [i, word] of words.entries()) {
    const shape = shapes[i];
    if (shape === "acronym" && !GENERIC_ACRONYMS.has(word) && !SQL_KEYWORDS.has(word)) add(word, "name");
    if (shape === "camel") add(word, /(?:Exception|Error)$/.test(word) ? "error" : humps(word) <= 2 ? "name" : "identifier");
  }
  if (words.length === 1) {
    if (shapes[0] === "title" && !COMMON_CAPITALIZED.has(words[0] as string)) add(words[0] as string, "name");
    return;
  }
  if (words.length <= 4) add(words.join(" "), "name");
  // "Terraform Cloud" and "Karpenter NodePools" also name Terraform and Karpenter, but
  // "Great Expectations" does not name anything great: the head counts when the rest is generic.
  const titleStart = shapes.findIndex((s) => s === "title");
  const first = words[titleStart];
  const restIsGeneric = words.slice(1).every((w, i) => shapes[i + 1] !== "title" || COMMON_CAPITALIZED.has(w));
  if (titleStart === 0 && first !== undefined && !COMMON_CAPITALIZED.has(first) && restIsGeneric) add(first, "name");
  if (titleStart > 0 && words.length - titleStart >= 2 && shapes.slice(titleStart).every((s) => s === "title")) {
    add(words.slice(titleStart).join(" "), "name");
  }
}

function wordShape(word: string): "acronym" | "camel" | "title" | "other" {
  if (/^[A-Z][A-Z0-9]{1,7}s?$/.test(word) && /[A-Z].*[A-Z]|^[A-Z]\d/.test(word)) return "acronym";
  if (/^[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/.test(word) && /[a-z]/.test(word)) return "camel";
  if (/^[A-Z][a-z]/.test(word)) return "title";
  return "other";
}

function humps(word: string): number {
  return (word.match(/[A-Z]/g) ?? []).length;
}

/** True when only whitespace, quotes or brackets separate `index` from a sentence boundary. */
function startsSentence(text: string, index: number): boolean {
  let i = index - 1;
  let sawNewline = false;
  while (i >= 0 && /[\s"'“‘(\[`]/.test(text[i] as string)) {
    if (text[i] === "\n") sawNewline = true;
    i -= 1;
  }
  return i < 0 || sawNewline || /[.!?:;•*\-–—]/.test(text[i] as string);
}

/** Drops trailing punctuation, and a closing bracket only when the token did not open it. */
function trimEnd(token: string): string {
  let out = token.replace(/[.,:;!?'"`]+$/, "");
  for (const [open, close] of [["(", ")"], ["[", "]"], ["{", "}"]] as const) {
    while (out.endsWith(close) && out.split(close).length > out.split(open).length) out = out.slice(0, -1).replace(/[.,:;!?'"`]+$/, "");
  }
  return out;
}

const SOURCE_ROOTS = new Set([
  "src", "lib", "internal", "cmd", "pkg", "app", "apps", "packages", "test", "tests", "spec", "e2e", "docs", "scripts",
  "bin", "dist", "build", "config", "configs", "migrations", "db", "dbt", "modules", "envs", "charts", "deploy",
  "infra", "terraform", "k8s", "helm", "argocd", ".github", "tools", "assets", "public", "static", "models",
]);

const FILE_EXTENSIONS = new Set([
  "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "json", "jsonc", "json5", "yaml", "yml", "toml", "ini", "cfg",
  "conf", "go", "mod", "sum", "py", "pyi", "ipynb", "sql", "tf", "tfvars", "hcl", "md", "mdx", "rst", "lock", "sh",
  "bash", "zsh", "fish", "ps1", "rb", "rs", "java", "kt", "kts", "swift", "c", "h", "cc", "cpp", "hpp", "cs", "php",
  "css", "scss", "sass", "less", "html", "vue", "svelte", "xml", "gradle", "plist", "proto", "graphql", "gql", "txt",
  "csv", "tsv", "parquet", "log", "pem", "wasm", "db", "sqlite", "dockerfile", "env", "exe", "dll", "so", "dylib",
]);

const KNOWN_FILES = new Set([
  "makefile", "dockerfile", "justfile", "procfile", "gemfile", "rakefile", "brewfile", "jenkinsfile", "vagrantfile",
  "containerfile", ".gitignore", ".gitattributes", ".dockerignore", ".npmrc", ".nvmrc", ".editorconfig",
  ".prettierrc", ".eslintrc", ".tool-versions", ".python-version", ".terraform.lock.hcl",
]);

/** Subcommands that make "terraform plan" a command in prose, where "terraform change" is not. */
const CLI_SUBCOMMANDS = new Map<string, Set<string>>(
  Object.entries({
    terraform: "plan,apply,init,import,validate,fmt,destroy,force-unlock,state,output,workspace,refresh,taint",
    atlantis: "plan,apply,unlock",
    kubectl: "apply,get,delete,describe,logs,exec,rollout,port-forward,scale,edit,drain,cordon",
    helm: "install,upgrade,template,rollback,uninstall",
    docker: "build,run,compose,push,pull,exec,login",
    git: "commit,push,pull,rebase,merge,checkout,switch,stash,bisect,cherry-pick,tag,log,reset,clone,fetch,revert",
    npm: "install,ci,run,publish,test,exec,link,version,pack,audit",
    pnpm: "install,add,run,lint,test,build,publish,dlx,exec",
    yarn: "install,add,run,test,build",
    npx: "tsc,vitest,expo,eslint,prettier",
    dbt: "run,build,test,seed,snapshot,compile,docs,deps,source,docs generate,docs serve,source freshness",
    uv: "run,sync,add,lock,pip",
    poetry: "install,add,lock,run",
    go: "build,test,run,mod,get,install,vet,generate,mod tidy",
    cargo: "build,test,run,add",
    eas: "build,submit,update",
    expo: "start,prebuild,install,export",
    gh: "pr,release,run,workflow",
    pytest: "",
    make: "",
  }).map(([cli, subs]) => [cli, new Set(subs === "" ? [] : subs.split(","))]),
);
const SHELL_BUILTINS = new Set(["cd", "echo", "export", "ls", "cat", "set", "source", "unset", "mkdir", "rm", "cp", "mv"]);
const MAKE_TARGETS = new Set(["test", "check", "build", "lint", "sqlc", "migrate", "generate", "install", "clean", "fmt", "dev", "deploy", "ci"]);
const CLI_IN_PROSE = new RegExp(`\\b(${[...CLI_SUBCOMMANDS.keys()].join("|")}) ([a-z][\\w-]*)(?: ([a-z][\\w-]*))?`, "gi");
const INSTALL =
  /\b(?:npm (?:i|install|add)|pnpm (?:add|install|i)|yarn add|bun add|(?:npx )?expo install|pip install|uv add|uv pip install|poetry add|go get|cargo add|brew install)((?:\s+(?:-{1,2}[\w-]+|[@a-z][\w@./-]*))+)/gi;

const ERRNO = new Set([
  "ENOENT", "EACCES", "EPERM", "EEXIST", "ENOTDIR", "EISDIR", "EMFILE", "ENFILE", "ENOSPC", "EROFS", "EBUSY", "EAGAIN",
  "EINTR", "EINVAL", "EPIPE", "ECONNRESET", "ECONNREFUSED", "ECONNABORTED", "ETIMEDOUT", "EADDRINUSE",
  "EADDRNOTAVAIL", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "ENETDOWN", "ENOTEMPTY", "ENOMEM", "ENOTCONN",
  "ESRCH", "EXDEV", "ELOOP", "ENAMETOOLONG", "ENOSYS", "ENOTSUP", "EOPNOTSUPP", "EPROTO", "ETXTBSY", "EDEADLK",
  "ESOCKETTIMEDOUT", "EINPROGRESS", "EALREADY", "ECANCELED", "EHOSTDOWN", "EIO",
]);

const HTTP_STATUS =
  /\bHTTP[ /]?([1-5]\d{2})\b|\b([45]\d{2})(?= (?:responses?|errors?|status|codes?|too many|bad request|unauthorized|forbidden|not found|conflict|internal|service unavailable|bad gateway|gateway timeout)\b)|\b(?:got|get|gets|getting|hit|hits|hitting|returns?|returned|returning|throws?|threw|status(?: code)?) (?:an? )?([45]\d{2})(?![-\w.%])/gi;

/** Upper-case words with a dash and a number that are standards and versions, not tickets. */
const NOT_TICKET_PREFIXES = new Set([
  "SHA", "UTF", "AES", "RSA", "ISO", "DNS", "TLS", "SSL", "HTTP", "MD", "IPV", "ES", "ECMA", "GPT", "RFC", "ANSI",
  "IEEE", "PEP", "WCAG", "OWASP", "IE", "H", "X", "Y", "Z", "COVID",
]);

const PACKAGE_PREFIXES = new Set([
  "react", "expo", "eslint", "typescript", "python", "babel", "vite", "rollup", "webpack", "jest", "vitest", "next",
  "vue", "svelte", "posthog", "redux", "date", "testcontainers", "pg", "py", "pytest", "django", "flask", "fastapi",
  "aws", "firebase", "apollo", "graphql", "prettier", "tailwind", "styled", "ts", "node", "nuxt", "angular", "sentry",
]);
const PACKAGE_SUFFIXES = new Set(["js", "ts", "go", "py", "rs", "cli", "sdk", "native", "web", "eslint", "plugin"]);

const ENV_PREFIXES = new Set([
  "MEMD", "NODE", "NPM", "AWS", "DOCKER", "XDG", "GITHUB", "CI", "OPENAI", "ANTHROPIC", "OLLAMA", "PYTHON", "GO",
  "KUBE", "TF", "HTTP", "HTTPS", "NO", "LC", "LANG", "TERM", "PG", "DATABASE", "REDIS",
]);
const ENV_SUFFIXES = new Set([
  "KEY", "SECRET", "TOKEN", "URL", "URI", "DSN", "HOST", "PORT", "HOME", "PATH", "DIR", "DISABLED", "ENABLED", "LEVEL",
  "ENV", "MODE", "USER", "PASSWORD", "PASS", "REGION", "PROFILE", "DEBUG", "TIMEOUT",
]);

/** Capitalized words that never name anything on their own, wherever they stand. */
const NAME_STOPWORDS = new Set(
  ("I I'm I've I'll I'd A An The This That These Those It We Our You Your They He She My Me Do Does Did Is Are Was " +
    "Were Be Not No Yes OK Ok TODO FIXME NOTE Note TBD WIP And Or But If When What Which Who Why How Where Then Also " +
    "For In On At By To From With Of As Per Via After Before Every All Each Any Some Only Never Always Just Next Now " +
    "True False None Null Please Don't It's That's What's There's Here's Can Should Would Could Will Must May Might Monday Tuesday Wednesday Thursday Friday Saturday Sunday " +
    "January February April June July August September October November December").split(" "),
);

/** Title-case words that are ordinary nouns when they start a run such as "Secrets Manager". */
const COMMON_CAPITALIZED = new Set(
  ("Secret Secrets Manager Store Cloud Parameter Open Public Private Direct Debit Center Identity Transit Gateway Load " +
    "Balancer Controller Exchange Rates Instant Client Server Service Services Desktop Code Silicon Architecture " +
    "Elements Query Toolkit Operator External Conventional Commits Error Errors Warning Info Debug Data Database App " +
    "Application User Users Team Project Config Test Tests Build Release Production Staging Prod Dev Default Auth " +
    "Internal Native Mobile Web Global New Old First Last Raw Background Incoming Flaky Stale Integration Sign Push " +
    "Slowly Anonymous Interactive Offline Weather Resource Revenue Images Humans Pods Maps Fonts Disputes Shell " +
    "Text Let's Great Job Pod Deployment Owner Env Tests Run Use Set Add Moved Switched Replaced Dropped Added Removed Fixed Enabled Disabled Just Currently").split(" "),
);

/** Acronyms too common in developer prose to link memories. */
const GENERIC_ACRONYMS = new Set(
  ("API APIs CLI CI CD PR PRs UI UX ID IDs OK TODO JSON YAML HTTP HTTPS URL URLs SQL DB OS JS TS IO SDK ETA FYI ASAP " +
    "EOD UTC AM PM IP TTL TTY CPU RAM XL MB GB KB TB MS CSV PDF HTML CSS DNS TLS SSL FIXME TBD WIP QA DX LGTM IMO " +
    "GET POST PUT PATCH DELETE HEAD OPTIONS ERROR WARN WARNING INFO DEBUG FATAL TRUE FALSE NULL NONE NUMBER MiB GiB " +
    "KiB Mi Gi").split(" "),
);

/** Upper-case SQL words: part of a named clause ("FOR UPDATE SKIP LOCKED"), never a name alone. */
const SQL_KEYWORDS = new Set(
  ("SELECT FROM WHERE AND OR NOT FOR UPDATE SKIP LOCKED INTO COPY INSERT DELETE JOIN LEFT RIGHT INNER OUTER ON AS BY " +
    "ORDER GROUP PARTITION OVER DESC ASC QUALIFY LIMIT OFFSET WITH VALUES SET CREATE ALTER DROP TABLE INDEX VIEW " +
    "MERGE USING MATCHED THEN WHEN CASE END NULL IS IN HAVING UNION ALL DISTINCT").split(" "),
);

const STOPWORDS = new Set(
  ("a about above after again against all am an and any are as at be because been before being below between both " +
    "but by can can't could did didn't do does doesn't doing don't down during each few for from further had has " +
    "have having he her here hers him his how i i'm if in into is isn't it it's its itself just me more most my no " +
    "nor not now of off on once only or other our ours out over own same she should so some such than that the " +
    "their them then there these they this those through to too under until up very was we were what when where " +
    "which while who whom why will with would you your yours again also any anything did get got how's i'll i've " +
    "let's may might must need new old one ones our still thing things use used using want way ways what's where's " +
    "yet ago last week weeks month months day days year years yesterday today recently back").split(" "),
);
