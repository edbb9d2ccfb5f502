import type { CaptureCandidate } from "../capture/candidate.js";
import { splitSentences } from "../capture/sentences.js";
import type { TranscriptEvent, TranscriptToolUse } from "../capture/transcript-event.js";
import { redact } from "../redact/redact-secrets.js";
import { type ChatModel, modelLabel } from "./chat-model.js";
import { askForJson, parseJsonObject } from "./json-reply.js";
import { distilledCandidates } from "./distilled-candidates.js";
import { distillationPrompt } from "./prompts.js";

export type DistillOutcome =
  | { ok: true; candidates: CaptureCandidate[] }
  /** Why only the deterministic candidates are used, in a few words fit for a log (never transcript text). */
  | { ok: false; reason: string };

/** Asks a model what a transcript holds worth remembering; the sweep keeps its deterministic result on any failure. */
export interface TranscriptDistiller {
  /** "openai:gpt-4o-mini", for logs and event details. */
  readonly label: string;
  distill(events: readonly TranscriptEvent[]): Promise<DistillOutcome>;
}

/** About 6,000 tokens of the session's prose: the tail, as the sweep reads the tail of long transcripts. */
const MAX_TRANSCRIPT_CHARS = 24_000;
/** Bounds the answer; a few more than the staged cap, since some repeat what the rules found. */
const MAX_DISTILLED = 8;
const MAX_COMPLETION_TOKENS = 1500;
const MAX_FAILURE_CHARS = 200;

/** The distiller over a (spend-capped) chat model. */
export function createTranscriptDistiller(model: ChatModel): TranscriptDistiller {
  const label = modelLabel(model);
  return {
    label,
    async distill(events) {
      const { text, speakers } = distillationText(events, MAX_TRANSCRIPT_CHARS);
      if (text === "") return { ok: true, candidates: [] };
      const asked = await askForJson(model, distillationPrompt(text, MAX_DISTILLED), MAX_COMPLETION_TOKENS);
      if (!asked.ok) return asked;
      const parsed = parseJsonObject(asked.text);
      if (!parsed || !Array.isArray(parsed.memories)) return { ok: false, reason: 'the reply is not a JSON object with a "memories" list' };
      return { ok: true, candidates: distilledCandidates(parsed.memories, speakers, label).slice(0, MAX_DISTILLED) };
    },
  };
}

/**
 * The transcript as the model sees it: each message's prose, with code, pasted output and
 * injected wrappers removed (the sentences the rule-based extractors read), and each failed
 * command with the first line of its error; one line per message, "[line, speaker] text", every
 * line redacted. Past `maxChars` only the tail is kept. `speakers` maps each line number to who
 * spoke there, so that what the model cites can be checked.
 */
export function distillationText(events: readonly TranscriptEvent[], maxChars: number): { text: string; speakers: Map<number, CaptureCandidate["source"]> } {
  const uses = new Map<string, TranscriptToolUse>();
  const lines: { line: number; speaker: CaptureCandidate["source"]; text: string }[] = [];
  for (const event of events) {
    if (event.kind === "tool-use") {
      uses.set(event.id, event);
    } else if (event.kind === "text") {
      const prose = splitSentences(event.text).join(" ");
      if (prose !== "") lines.push({ line: event.line, speaker: event.role, text: prose });
    } else if (event.isError) {
      const command = uses.get(event.toolUseId)?.command ?? "";
      const first = event.outputHead.split(/\r?\n/).find((l) => l.trim() !== "")?.trim() ?? "";
      const failure = `${command ? `\`${command}\` failed` : "a tool call failed"}${first ? `: ${first}` : ""}`;
      lines.push({ line: event.line, speaker: "tools", text: failure.slice(0, MAX_FAILURE_CHARS) });
    }
  }
  const rendered = lines.map((l) => redact(`[${l.line}, ${l.speaker}] ${l.text}`));
  let start = 0;
  for (let total = rendered.reduce((sum, l) => sum + l.length + 1, 0); total > maxChars && start < rendered.length; start += 1) {
    total -= (rendered[start] as string).length + 1;
  }
  const kept = lines.slice(start);
  return { text: rendered.slice(start).join("\n"), speakers: new Map(kept.map((l) => [l.line, l.speaker])) };
}
