import { type CaptureCandidate, candidate } from "../capture/candidate.js";
import { normalizeText } from "../lifecycle/content-hash.js";
import { stringList } from "./json-reply.js";

const KINDS: ReadonlySet<string> = new Set<CaptureCandidate["kind"]>(["preference", "decision", "fact", "episode"]);
/** As long as the longest sentence the rule-based extractors keep: a memory is a statement, not a dump. */
const MAX_TEXT_CHARS = 600;
const MAX_CONCEPTS = 5;
const MAX_FILES = 10;
const MAX_LIST_ITEM_CHARS = 256;
/** Share of the shorter text's words the other holds for the two to say the same thing. */
const SAME_WORDS = 0.7;

/**
 * The memories a model listed, as sweep candidates: items of an unknown kind, without content,
 * too long, or quoting a redaction marker are dropped. The cited line counts only if the
 * transcript shown to the model had it; the speaker comes from that line, never from the model.
 */
export function distilledCandidates(items: readonly unknown[], speakers: ReadonlyMap<number, CaptureCandidate["source"]>, label: string): CaptureCandidate[] {
  const out: CaptureCandidate[] = [];
  for (const item of items) {
    if (typeof item !== "object" || item === null) continue;
    const fields = item as Record<string, unknown>;
    const kind = typeof fields.kind === "string" ? fields.kind.trim().toLowerCase() : "";
    const content = text(fields.content);
    if (!KINDS.has(kind) || content === "" || /\[REDACTED:/i.test(content)) continue;
    const episode = kind === "episode";
    const line = typeof fields.line === "number" && speakers.has(fields.line) ? fields.line : 0;
    out.push(
      candidate({
        kind: kind as CaptureCandidate["kind"],
        content,
        problem: episode ? text(fields.problem) : "",
        solution: episode ? text(fields.solution) : "",
        concepts: stringList(fields.concepts, MAX_CONCEPTS, MAX_LIST_ITEM_CHARS),
        files: stringList(fields.files, MAX_FILES, MAX_LIST_ITEM_CHARS),
        source: speakers.get(line) ?? "assistant",
        line,
        reason: `distilled by ${label}`,
        model: label,
      }),
    );
  }
  return out;
}

/**
 * The rule-based candidates first, then the model's that say something new: one whose words
 * mostly repeat a rule-based candidate's (or an earlier one of the model's) is dropped, so the
 * deterministic wording wins and the per-session caps go to the rules' finds first.
 */
export function mergeDistilled(deterministic: readonly CaptureCandidate[], distilled: readonly CaptureCandidate[]): CaptureCandidate[] {
  const said = deterministic.map((c) => wordsOf(`${c.content} ${c.problem} ${c.solution}`));
  const added: CaptureCandidate[] = [];
  for (const c of distilled) {
    const words = wordsOf(c.content);
    if (words.size === 0 || said.some((other) => sameWords(words, other))) continue;
    said.push(words);
    added.push(c);
  }
  return [...deterministic, ...added];
}

/** A string field, trimmed; "" when missing or too long to be a statement. */
function text(value: unknown): string {
  return typeof value === "string" && value.trim().length <= MAX_TEXT_CHARS ? value.trim() : "";
}

function wordsOf(value: string): Set<string> {
  return new Set(normalizeText(value).split(" ").filter((w) => w.length >= 3));
}

function sameWords(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (b.size === 0) return false;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / Math.min(a.size, b.size) >= SAME_WORDS;
}
