import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "./bench-options.js";
import { type Half, HALVES } from "./recall-dataset.js";

/**
 * How a set is loaded: "one-store" puts every project in one daemon, as a user's store holds
 * them; "per-project" gives each project that a query names a daemon of its own (with the
 * global memories), as published LongMemEval figures index one haystack at a time.
 */
export type Layout = "one-store" | "per-project";
export const LAYOUTS: readonly Layout[] = ["one-store", "per-project"];

/** One measurement: a dataset directory (memories.jsonl, queries.jsonl), absolute, in a layout. */
export interface RecallSet {
  dir: string;
  layout: Layout;
}

export interface RecallOptions {
  /** The sets, measured one after the other. */
  sets: RecallSet[];
  /** Default sets that are not on this machine, and so are not measured. */
  missing: string[];
  /** Also print the figures as one JSON object on the last line. */
  json: boolean;
  /** MEMD_EMBEDDER for the daemon. */
  /**
   * MEMD_EMBEDDER for the daemon, one or more: each is measured in turn on the same stores (the
   * first loads them; the next restarts memd on them, so vectors of a space already built are kept).
   */
  embedders: string[];
  /** How long to wait for the embedding queue to drain before searching anyway, over all of a set's daemons. */
  queueTimeoutMs: number;
  /** Measure only this many of each set's queries (see sampleDataset); undefined measures all. */
  sample: number | undefined;
  /** Measure only this half of each set's queries (see halveDataset); undefined measures all. */
  half: Half | undefined;
}

/**
 * Measured when no directory is given: the coding-agent dev set in the repository, and beside
 * the repository where they are, the LoCoMo development half and the LongMemEval sample (both
 * evaluation-only licences or sizes, so they are never copied in). LongMemEval is measured in
 * both layouts: a user's store holds many projects, published figures hold one.
 */
export const DEFAULT_SETS: readonly { dir: string; layouts: readonly Layout[] }[] = [
  { dir: "bench/data/eval-dev", layouts: ["one-store"] },
  { dir: "../shared/eval/locomo-dev", layouts: ["one-store"] },
  { dir: "../shared/eval/lme-dev", layouts: ["one-store", "per-project"] },
];
const DEFAULT_QUEUE_TIMEOUT_S = 180;

export const RECALL_USAGE = `usage: node dist/bench/recall.js [DIR...] [--layout one-store,per-project] [--sample N]
                             [--half tune|held] [--json] [--embedder static[,local,...]] [--queue-timeout 180]

Loads each recall dataset (DIR/memories.jsonl and DIR/queries.jsonl; by default
${DEFAULT_SETS.map((s) => `${s.dir} (${s.layouts.join(", ")})`).join(", ")},
relative to the repository, those beside it where they exist) into the compiled memd on a
temporary MEMD_HOME: all projects in one store, or with --layout per-project one store per project
that a query names (plus the global memories). It reads the data first, then starts memd, waits
until every memory is embedded (at most --queue-timeout seconds for the whole set), runs each query
in keyword, vector and hybrid mode and prints recall@5 and @10 (the share of relevant memories in
the top k), any@5 and @10 (queries with at least one in the top k: LongMemEval's recall_any),
all@10, nDCG@10 and the must-not violation rate, overall and per kind (any kind label the dataset
uses); then asks Suggest with each query as a prompt and prints what a prompt hook would inject.
--sample N measures N queries of each set, spread evenly over its kinds, and loads only the
projects they need (for the fused path on sets whose embedding takes long). --half tune scores
half of each kind's queries (chosen by a hash of their ids) on the whole store, --half held the
other half: fit a constant on the first, report it on the second. With --embedder none,
hybrid mode is keyword and graph alone and is labelled "hybrid (no vectors)", not fused. The ranked
runs are written as JSONL for score.py. --embedder takes one MEMD_EMBEDDER (default static, the
daemon's own default) or several, comma-separated, measured in turn on the same stores: memd is
restarted on them with the next, and keeps the vectors of a space it already built (local then
asymmetric embeds the memories once). Ends with one summary line per set; --json adds one JSON
object on the last line, keyed by dataset and layout.`;

/** Parses the command line. */
export function parseRecallOptions(argv: readonly string[], repoRoot: string): RecallOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        json: { type: "boolean", default: false },
        embedder: { type: "string", default: "static" },
        "queue-timeout": { type: "string" },
        layout: { type: "string" },
        sample: { type: "string" },
        half: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) return "help";
  // From the repository root as documented, or from the working directory if only that has it.
  const resolve = (given: string) => {
    const fromRoot = path.resolve(repoRoot, given);
    return fs.existsSync(fromRoot) ? fromRoot : path.resolve(given);
  };
  const hasFiles = (dir: string) => ["memories.jsonl", "queries.jsonl"].every((file) => fs.existsSync(path.join(dir, file)));
  const layouts = parsed.values.layout === undefined ? undefined : parseLayouts(parsed.values.layout);
  const sets: RecallSet[] = [];
  const missing: string[] = [];
  if (parsed.positionals.length > 0) {
    for (const dir of parsed.positionals.map(resolve)) {
      if (!hasFiles(dir)) throw new UsageError(`${dir} has no memories.jsonl and queries.jsonl`);
      for (const layout of layouts ?? ["one-store"]) sets.push({ dir, layout });
    }
  } else {
    for (const given of DEFAULT_SETS) {
      const dir = resolve(given.dir);
      if (!hasFiles(dir)) missing.push(dir);
      else for (const layout of layouts ?? given.layouts) sets.push({ dir, layout });
    }
    if (sets.length === 0) throw new UsageError(`none of the default datasets is here (${DEFAULT_SETS.map((s) => s.dir).join(", ")})`);
  }
  const timeoutText = parsed.values["queue-timeout"];
  const timeoutS = timeoutText === undefined ? DEFAULT_QUEUE_TIMEOUT_S : Number(timeoutText);
  if (!Number.isFinite(timeoutS) || timeoutS < 0) {
    throw new UsageError(`--queue-timeout takes seconds, e.g. 180; got "${timeoutText}"`);
  }
  const sampleText = parsed.values.sample;
  const sample = sampleText === undefined ? undefined : Number(sampleText);
  if (sample !== undefined && (!Number.isInteger(sample) || sample < 1)) {
    throw new UsageError(`--sample takes a number of queries, e.g. 20; got "${sampleText}"`);
  }
  const half = parsed.values.half;
  if (half !== undefined && !(HALVES as readonly string[]).includes(half)) throw new UsageError(`--half takes ${HALVES.join(" or ")}; got "${half}"`);
  return {
    sets,
    missing,
    json: parsed.values.json ?? false,
    embedders: (parsed.values.embedder ?? "static").split(",").map((name) => name.trim()).filter(Boolean),
    queueTimeoutMs: timeoutS * 1000,
    sample,
    half: half as Half | undefined,
  };
}

function parseLayouts(text: string): Layout[] {
  const given = text.split(",").map((part) => part.trim());
  const unknown = given.filter((layout) => !(LAYOUTS as readonly string[]).includes(layout));
  if (unknown.length > 0 || given.length === 0) throw new UsageError(`--layout takes ${LAYOUTS.join(" and/or ")}, comma-separated; got "${text}"`);
  return [...new Set(given as Layout[])];
}

/** The nearest directory at or above `start` holding memd's package.json. */
export function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "memd") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no memd package.json above ${start}`);
  }
}
