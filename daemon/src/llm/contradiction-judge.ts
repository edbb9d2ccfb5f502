import { redact } from "../redact/redact-secrets.js";
import { type ChatModel, modelLabel } from "./chat-model.js";
import { askForJson, parseJsonObject } from "./json-reply.js";
import { contradictionPrompt } from "./prompts.js";

/** A model's judgement of a pair, once checked. */
export type ContradictionVerdict =
  | { ok: true; contradicts: boolean; subject: string; newer: string; older: string }
  /** Why there is no judgement, in a few words fit for a log (never the memories' text). */
  | { ok: false; reason: string };

/** Asks a (spend-capped) model whether two memories contradict; the pair stays unreported on any failure. */
export interface ContradictionJudge {
  /** "openai:gpt-4o-mini", recorded as the detector of what it finds. */
  readonly label: string;
  judge(older: string, newer: string): Promise<ContradictionVerdict>;
}

/** Each memory is cut to this many characters: a contradiction is in a sentence, not in a page. */
const MAX_MEMORY_CHARS = 2000;
const MAX_COMPLETION_TOKENS = 200;
/** What the reply's fields are cut to before they are stored. */
const MAX_FIELD_CHARS = 160;

export function createContradictionJudge(model: ChatModel): ContradictionJudge {
  const label = modelLabel(model);
  return {
    label,
    async judge(older, newer) {
      const asked = await askForJson(model, contradictionPrompt(redact(older.slice(0, MAX_MEMORY_CHARS)), redact(newer.slice(0, MAX_MEMORY_CHARS))), MAX_COMPLETION_TOKENS);
      if (!asked.ok) return asked;
      const reply = parseJsonObject(asked.text);
      if (!reply || typeof reply.contradicts !== "boolean") return { ok: false, reason: 'the reply is not a JSON object with a boolean "contradicts"' };
      const field = (value: unknown) => (typeof value === "string" ? redact(value.replace(/[\u0000-\u001f\u007f]/g, " ").trim().slice(0, MAX_FIELD_CHARS)) : "");
      return { ok: true, contradicts: reply.contradicts, subject: field(reply.subject), newer: field(reply.newer), older: field(reply.older) };
    },
  };
}
