import { OWN } from "./author.js";
import type { MemoryKind, MemoryRecord, Provenance, Tier } from "./memory.js";
import { provenanceDefaults } from "./provenance-defaults.js";
import { redactMemory } from "./redact-memory.js";
import {
  type MemoryLimits, normalizeList, validateContent, validateImportance, validateFutureTime, validateOptionalText, validateRange,
} from "./validate.js";

/** What a caller supplies for a new memory; the rest comes from defaults. */
export interface NewMemoryInput {
  content: string;
  kind?: MemoryKind;
  project: string;
  problem?: string;
  solution?: string;
  concepts?: readonly string[];
  files?: readonly string[];
  tags?: readonly string[];
  confidence?: number;
  provenance?: Provenance;
  tier?: Tier;
  pinned?: boolean;
  importance?: number;
  valence?: number;
  intensity?: number;
  sessionId?: string;
  sourceAgent?: string;
  expiresAt?: number | null;
  reviewAt?: number | null;
}

const DEFAULT_IMPORTANCE = 3;

/** Validates the input and builds the complete record, filling defaults from the provenance. */
export function buildMemory(input: NewMemoryInput, id: string, now: number, limits: MemoryLimits): MemoryRecord {
  const provenance = input.provenance ?? "save";
  const defaults = provenanceDefaults(provenance);
  return redactMemory({
    id,
    content: validateContent("content", input.content, limits),
    kind: input.kind ?? "fact",
    project: input.project,
    problem: validateOptionalText("problem", input.problem ?? "", limits),
    solution: validateOptionalText("solution", input.solution ?? "", limits),
    concepts: normalizeList("concepts", input.concepts ?? []),
    files: normalizeList("files", input.files ?? []),
    tags: normalizeList("tags", input.tags ?? []),
    confidence: validateRange("confidence", input.confidence ?? defaults.confidence, 0, 1),
    provenance,
    tier: input.tier ?? defaults.tier,
    // Inferred memories wait for corroboration before normal recall may use them.
    status: provenance === "distilled" ? "staged" : "active",
    pinned: input.pinned ?? false,
    importance: validateImportance(input.importance ?? DEFAULT_IMPORTANCE),
    valence: validateRange("valence", input.valence ?? 0, -1, 1),
    intensity: validateRange("intensity", input.intensity ?? 0, 0, 1),
    sessionId: input.sessionId ?? "",
    sourceAgent: input.sourceAgent ?? "",
    createdAt: now,
    updatedAt: now,
    lastAccessedAt: null,
    ...OWN,
    expiresAt: input.expiresAt ?? null,
    reviewAt: validateFutureTime("review_time", input.reviewAt ?? null, now),
    accessCount: 0,
    supersedes: "",
    supersededBy: "",
    archiveReason: "",
    invalidAt: null,
  });
}
