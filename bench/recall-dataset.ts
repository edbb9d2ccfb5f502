import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { monotonicFactory } from "ulid";
import { z } from "zod";
import { MemoryKind, type MemorySchema, MemoryStatus, Provenance, Tier } from "../gen/memd/v1/memory_pb.js";
import { mulberry32 } from "./seeded-random.js";

const DAY_MS = 24 * 60 * 60 * 1000;
// Fixed so that the same dataset gets the same ids (relative to `now`) on every run.
const ID_SEED = 20_250_301;


const KINDS = {
  fact: MemoryKind.FACT, decision: MemoryKind.DECISION, preference: MemoryKind.PREFERENCE,
  procedure: MemoryKind.PROCEDURE, episode: MemoryKind.EPISODE, trace: MemoryKind.TRACE, idea: MemoryKind.IDEA,
  rule: MemoryKind.RULE, task: MemoryKind.TASK, context: MemoryKind.CONTEXT,
} as const;
// Confidence and tier as Save would default them for each provenance (daemon/src/memory/provenance-defaults.ts):
// Import stores memories exactly as given, so the harness supplies what Save would have.
const PROVENANCES = {
  save: { provenance: Provenance.SAVE, confidence: 0.5, tier: Tier.REGULAR },
  checkpoint: { provenance: Provenance.CHECKPOINT, confidence: 0.65, tier: Tier.REGULAR },
  human: { provenance: Provenance.HUMAN, confidence: 0.95, tier: Tier.CORE },
  distilled: { provenance: Provenance.DISTILLED, confidence: 0.3, tier: Tier.REGULAR },
} as const;
const STATUSES = { active: MemoryStatus.ACTIVE, staged: MemoryStatus.STAGED, superseded: MemoryStatus.SUPERSEDED } as const;

const keysOf = <T extends object>(o: T) => Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

const datasetMemory = z.object({
  id: z.string().min(1),
  project: z.string().min(1),
  type: z.enum(keysOf(KINDS)),
  content: z.string().min(1),
  problem: z.string().optional(),
  solution: z.string().optional(),
  concepts: z.array(z.string()).default([]),
  files: z.array(z.string()).default([]),
  days_ago: z.number().min(0),
  provenance: z.enum(keysOf(PROVENANCES)),
  status: z.enum(keysOf(STATUSES)),
  supersedes: z.string().optional(),
  pinned: z.boolean().optional(),
  session: z.string().optional(),
  /**
   * When the memory was made, where the dataset knows (a conversation's session date): ISO 8601,
   * or "1:56 pm on 8 May, 2023" as LoCoMo writes it. It wins over days_ago.
   */
  when: z.string().optional(),
});
const datasetQuery = z.object({
  qid: z.string().min(1),
  query: z.string().min(1),
  project: z.string().nullable(),
  relevant: z.array(z.string()),
  must_not: z.array(z.string()),
  /** Any label: the report shows each kind present, in the order of first appearance. */
  kind: z.string().min(1),
});

export type DatasetMemory = z.infer<typeof datasetMemory>;
export type DatasetQuery = z.infer<typeof datasetQuery>;

export interface Dataset {
  dir: string;
  memories: DatasetMemory[];
  queries: DatasetQuery[];
}

/** Reads memories.jsonl and queries.jsonl of a dataset directory in the dev-set format. */
export function readDataset(dir: string): Dataset {
  const memories = readJsonl(path.join(dir, "memories.jsonl"), datasetMemory);
  const queries = readJsonl(path.join(dir, "queries.jsonl"), datasetQuery);
  const ids = new Set(memories.map((m) => m.id));
  for (const m of memories) {
    if (m.supersedes !== undefined && !ids.has(m.supersedes)) throw new Error(`${m.id} supersedes unknown memory ${m.supersedes}`);
  }
  for (const q of queries) {
    const unknown = [...q.relevant, ...q.must_not].filter((id) => !ids.has(id));
    if (unknown.length > 0) throw new Error(`${q.qid} names unknown memories ${unknown.join(", ")}`);
  }
  return { dir, memories, queries };
}

function readJsonl<T>(file: string, schema: z.ZodType<T>): T[] {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const out: T[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const parsed = schema.safeParse(JSON.parse(line));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${file}:${index + 1}: ${issue?.path.join(".") ?? ""} ${issue?.message ?? "is invalid"}`);
    }
    out.push(parsed.data);
  });
  return out;
}

/** Dataset ids and the ULIDs memd stores them under, both ways. */
export interface IdMap {
  toUlid: ReadonlyMap<string, string>;
  toDatasetId: ReadonlyMap<string, string>;
}

/**
 * The dataset as memd memories: created at `when`, or `days_ago` days before `now`, with ULIDs made in
 * creation order (ties broken by dataset id) from a fixed seed, and supersession linked both
 * ways (the newer memory's supersedes, the older one's superseded_by).
 */
export function toMemdMemories(
  memories: readonly DatasetMemory[],
  now: number,
): { memories: MessageInitShape<typeof MemorySchema>[]; ids: IdMap } {
  const createMs = (m: DatasetMemory) => (m.when === undefined ? Math.round(now - m.days_ago * DAY_MS) : whenMs(m.when, m.id));
  // Oldest first: a monotonic ULID factory only keeps each id's time when times never go back.
  // Equal times keep the file's order (the sort is stable): the turns of one session are in it.
  const ordered = [...memories].sort((a, b) => createMs(a) - createMs(b));
  const newId = monotonicFactory(mulberry32(ID_SEED));
  const toUlid = new Map(ordered.map((m) => [m.id, newId(createMs(m))]));
  const toDatasetId = new Map([...toUlid].map(([datasetId, ulid]) => [ulid, datasetId]));
  const supersededBy = new Map(
    memories.filter((m) => m.supersedes !== undefined).map((m) => [m.supersedes as string, m.id]),
  );
  const ulidOf = (id: string | undefined) => (id === undefined ? "" : (toUlid.get(id) ?? ""));
  const converted = ordered.map((m): MessageInitShape<typeof MemorySchema> => {
    const time = timestampFromMs(createMs(m));
    const provenance = PROVENANCES[m.provenance];
    return {
      id: ulidOf(m.id),
      content: m.content,
      kind: KINDS[m.type],
      project: m.project,
      problem: m.problem ?? "",
      solution: m.solution ?? "",
      concepts: m.concepts,
      files: m.files,
      confidence: provenance.confidence,
      provenance: provenance.provenance,
      tier: provenance.tier,
      status: STATUSES[m.status],
      pinned: m.pinned ?? false,
      importance: 3,
      sessionId: m.session ?? "",
      createTime: time,
      updateTime: time,
      supersedes: ulidOf(m.supersedes),
      supersededBy: ulidOf(supersededBy.get(m.id)),
    };
  });
  return { memories: converted, ids: { toUlid, toDatasetId } };
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** A `when` as ms since the epoch (UTC): "1:56 pm on 8 May, 2023", or anything Date.parse reads (ISO 8601). */
export function whenMs(when: string, id: string): number {
  const spoken = /^(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})$/i.exec(when.trim());
  if (spoken) {
    const [, hour, minute, half, day, month, year] = spoken as unknown as string[];
    const monthIndex = MONTHS.indexOf((month as string).toLowerCase());
    if (monthIndex >= 0) {
      const hour24 = (Number(hour) % 12) + ((half as string).toLowerCase() === "pm" ? 12 : 0);
      return Date.UTC(Number(year), monthIndex, Number(day), hour24, Number(minute));
    }
  }
  const parsed = Date.parse(when);
  if (Number.isNaN(parsed)) throw new Error(`${id}: when "${when}" is neither ISO 8601 nor "1:56 pm on 8 May, 2023"`);
  return parsed;
}

/** The project global memories belong to: every store that holds a project holds these too. */
const GLOBAL_PROJECT = "global";

/**
 * `count` of the dataset's queries, spread evenly over its kinds in proportion to their sizes
 * (every k-th query of the list sorted by kind, file order kept within a kind), and the memories
 * they need: those of the projects the queries are asked in or whose memories they name, and
 * the global ones. A query asked in no project needs them all. The same count picks the same
 * queries on every run.
 */
export function sampleDataset(dataset: Dataset, count: number): Dataset {
  if (count >= dataset.queries.length) return dataset;
  const kinds = [...new Set(dataset.queries.map((q) => q.kind))];
  const byKind = kinds.flatMap((kind) => dataset.queries.filter((q) => q.kind === kind));
  const queries = Array.from({ length: count }, (_, i) => byKind[Math.floor(((i + 0.5) * byKind.length) / count)] as DatasetQuery);
  if (queries.some((q) => q.project === null)) return { ...dataset, queries };
  const projectOf = new Map(dataset.memories.map((m) => [m.id, m.project]));
  const projects = new Set([GLOBAL_PROJECT, ...queries.flatMap((q) => [q.project as string, ...[...q.relevant, ...q.must_not].map((id) => projectOf.get(id) as string)])]);
  return { ...dataset, queries, memories: dataset.memories.filter((m) => projects.has(m.project)) };
}

/** Which half of a set's queries: "tune" to fit constants on, "held" to check them on. */
export type Half = "tune" | "held";
export const HALVES: readonly Half[] = ["tune", "held"];

/**
 * One half of the dataset's queries, with every memory (the store is the same as for the whole
 * set; only fewer queries are scored): within each kind, the queries ordered by a hash of their
 * id, every other one. The halves are the same on every run and machine, balanced over kinds,
 * and chosen by nothing a query says, so a constant fitted on "tune" is checked on "held"
 * queries it never saw.
 */
export function halveDataset(dataset: Dataset, half: Half): Dataset {
  const hash = (qid: string) => createHash("sha256").update(qid).digest("hex");
  const kinds = [...new Set(dataset.queries.map((q) => q.kind))];
  const queries = kinds.flatMap((kind) =>
    dataset.queries
      .filter((q) => q.kind === kind)
      .map((q) => ({ q, key: hash(q.qid) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .filter((_, i) => i % 2 === (half === "tune" ? 0 : 1))
      .map(({ q }) => q),
  );
  return { ...dataset, queries };
}

/**
 * The dataset as one store per project that a query is asked in: that project's memories and
 * the global ones, and its queries. Queries asked in no project have no such store and are left
 * out (`unplaced` counts them).
 */
export function splitByProject(dataset: Dataset): { parts: Dataset[]; unplaced: number } {
  const projects = [...new Set(dataset.queries.flatMap((q) => (q.project === null ? [] : [q.project])))];
  const parts = projects.map((project) => ({
    dir: dataset.dir,
    memories: dataset.memories.filter((m) => m.project === project || m.project === GLOBAL_PROJECT),
    queries: dataset.queries.filter((q) => q.project === project),
  }));
  return { parts, unplaced: dataset.queries.filter((q) => q.project === null).length };
}
