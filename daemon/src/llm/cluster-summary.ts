import { unionLists } from "../lifecycle/union-lists.js";
import type { MemoryRecord } from "../memory/memory.js";
import { redactMemory } from "../memory/redact-memory.js";
import { redact } from "../redact/redact-secrets.js";
import { type ChatModel, modelLabel } from "./chat-model.js";
import { missingIdentifiers } from "../lifecycle/identifier-tokens.js";
import { askForJson, parseJsonObject, stringList } from "./json-reply.js";
import { consolidationPrompt } from "./prompts.js";

/** What a model made of a cluster, once checked. */
export interface ClusterSummary {
  content: string;
  concepts: string[];
}

export type SummaryOutcome =
  | { ok: true; summary: ClusterSummary; madeBy: string }
  /** Why the deterministic merge is used instead, in a few words fit for a log (never the memories' text). */
  | { ok: false; reason: string };

/** Summarises a consolidation cluster; maintenance falls back to the deterministic merge on any failure. */
export interface ClusterSummariser {
  /** "ollama:llama3.2", for logs and event details. */
  readonly label: string;
  summarise(members: readonly MemoryRecord[]): Promise<SummaryOutcome>;
}

/** Larger clusters are merged deterministically: a prompt this long costs much and summarises poorly. */
const MAX_PROMPT_CONTENT_CHARS = 24_000;
const MAX_CONCEPTS = 5;
const MAX_CONCEPT_CHARS = 64;

/** The summariser over a (spend-capped) chat model. */
export function createClusterSummariser(model: ChatModel): ClusterSummariser {
  const label = modelLabel(model);
  return {
    label,
    async summarise(members) {
      const contents = [...members].sort((a, b) => a.createdAt - b.createdAt).map((m) => redact(m.content));
      const total = contents.reduce((sum, c) => sum + c.length, 0);
      if (total > MAX_PROMPT_CONTENT_CHARS) return { ok: false, reason: `the cluster holds ${total} characters, over ${MAX_PROMPT_CONTENT_CHARS}` };
      // A summary is never longer than its members (checked below), so this bounds the worst case.
      const asked = await askForJson(model, consolidationPrompt(members[0]?.kind ?? "note", contents), Math.ceil(total / 2) + 64);
      if (!asked.ok) return asked;
      const checked = checkSummary(contents, asked.text);
      return checked.ok ? { ok: true, summary: checked.summary, madeBy: label } : checked;
    },
  };
}

/**
 * Accepts a model's reply only if it is a JSON object whose content is non-empty, no longer than
 * the members together, and keeps every identifier-shaped word any member holds.
 */
export function checkSummary(contents: readonly string[], reply: string): { ok: true; summary: ClusterSummary } | { ok: false; reason: string } {
  const parsed = parseJsonObject(reply);
  if (!parsed) return { ok: false, reason: "the reply is not a JSON object" };
  const content = typeof parsed.content === "string" ? parsed.content.trim() : "";
  if (content === "") return { ok: false, reason: "the reply has no content" };
  const limit = contents.join("\n").length;
  if (content.length > limit) return { ok: false, reason: `the summary (${content.length} characters) is longer than the memories it merges (${limit})` };
  const missing = missingIdentifiers(contents, content);
  if (missing.length > 0) return { ok: false, reason: `the summary drops ${missing.length} identifier(s) the memories hold` };
  return { ok: true, summary: { content, concepts: stringList(parsed.concepts, MAX_CONCEPTS, MAX_CONCEPT_CHARS) } };
}

/**
 * The deterministic merge with its content replaced by the summary and the summary's concepts
 * added after the members' own, redacted again: the model's words are stored like anyone's.
 */
export function withSummary(merged: MemoryRecord, summary: ClusterSummary): MemoryRecord {
  return redactMemory({ ...merged, content: summary.content, concepts: unionLists([merged.concepts, summary.concepts]) });
}
