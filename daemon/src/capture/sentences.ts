/**
 * Turns a message into the plain sentences the extractors classify. Code, pasted output and
 * machine-injected wrappers are dropped first: a memory is a statement, not a listing.
 */

/** Longer "sentences" are pastes (logs, dumps), not statements anyone will want recalled. */
const MAX_SENTENCE_CHARS = 600;
/** Custom tags (a dash or underscore in the name) wrap injected context: reminders, command output, environment. */
const WRAPPER_BLOCK = /<([a-z]+[-_][\w-]*)(?:\s[^>]*)?>[\s\S]*?<\/\1>/gi;
const FENCED_CODE = /```[\s\S]*?(?:```|$)/g;
const ABBREVIATIONS = new Set(["e.g", "i.e", "etc", "vs", "cf", "approx", "mr", "mrs", "dr"]);

/** The sentences of a message, in order, with markdown decoration and code removed. */
export function splitSentences(text: string): string[] {
  if (/^\s*(?:<[a-z][\w-]*[-_]|\[Request interrupted)/i.test(text)) return [];
  const prose = text.replace(WRAPPER_BLOCK, "\n").replace(FENCED_CODE, "\n");
  const sentences: string[] = [];
  for (const rawLine of prose.split(/\r?\n/)) {
    const line = cleanLine(rawLine);
    if (line === "" || looksLikeCode(line)) continue;
    for (const sentence of splitLine(line)) {
      if (sentence.length <= MAX_SENTENCE_CHARS && !mostlyCode(sentence)) sentences.push(sentence);
    }
  }
  return sentences;
}

/** Words of at least two letters outside inline code: the measure of how much prose a text holds. */
export function proseWordCount(text: string): number {
  return (text.replace(/`[^`]*`/g, " ").match(/[A-Za-z]{2,}/g) ?? []).length;
}

function cleanLine(line: string): string {
  return line
    .replace(/^\s*(?:#{1,6}\s+|>\s+|[-*+]\s+|\d+[.)]\s+)/, "")
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Lines that start like code or pasted output. A bracket counts only where data follows it
 * (`{"a": 1}`, `[1, 2]`, a lone `}`): "[WIP] always run the tests" is a statement.
 */
function looksLikeCode(line: string): boolean {
  return /^(?:import |export |const |let |var |function |class |return |if \(|for \(|def |\$ |> |[}\]]|[{[]\s*(?:["'{[\d]|$)|\/\/|#!)/.test(line);
}

function mostlyCode(sentence: string): boolean {
  if (proseWordCount(sentence) < 2) return true;
  const outsideCode = sentence.replace(/`[^`]*`/g, "");
  const symbols = (outsideCode.match(/[{}()[\];=<>$|\\]/g) ?? []).length;
  return symbols / Math.max(outsideCode.length, 1) > 0.1;
}

/**
 * Splits at ., ! or ? followed by a space and a capital, a quote or inline code, except
 * inside inline code and after common abbreviations.
 */
function splitLine(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  let inCode = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (ch === "`") inCode = !inCode;
    if (inCode || (ch !== "." && ch !== "!" && ch !== "?")) continue;
    if (line[i + 1] !== " " || !/[A-Z`"'(]/.test(line[i + 2] ?? "")) continue;
    const word = /([A-Za-z.]+)$/.exec(line.slice(start, i))?.[1]?.toLowerCase() ?? "";
    if (ch === "." && ABBREVIATIONS.has(word)) continue;
    out.push(line.slice(start, i + 1).trim());
    start = i + 2;
  }
  const rest = line.slice(start).trim();
  if (rest !== "") out.push(rest);
  return out;
}
