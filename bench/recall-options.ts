import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "./bench-options.js";

export interface RecallOptions {
  /** The dataset directory (memories.jsonl, queries.jsonl), absolute. */
  dir: string;
  /** Also print the figures as one JSON object on the last line. */
  json: boolean;
  /** MEMD_EMBEDDER for the daemon. */
  embedder: string;
  /** How long to wait for the embedding queue to drain before searching anyway. */
  queueTimeoutMs: number;
}

export const DEFAULT_DATASET = "bench/data/eval-dev";
const DEFAULT_QUEUE_TIMEOUT_S = 180;

export const RECALL_USAGE = `usage: node dist/bench/recall.js [DIR] [--json] [--embedder local] [--queue-timeout 180]

Loads a recall dataset (DIR/memories.jsonl and DIR/queries.jsonl, default ${DEFAULT_DATASET} of
the repository) into the compiled memd on a temporary MEMD_HOME, waits until every memory is
embedded (at most --queue-timeout seconds), runs each query in keyword, vector and hybrid mode
and prints recall@5, recall@10, nDCG@10 and the must-not violation rate, overall and per kind.
The ranked runs are written as JSONL for score.py. --json adds one JSON object on the last line.`;

/** Parses the command line. */
export function parseRecallOptions(argv: readonly string[], repoRoot: string): RecallOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        json: { type: "boolean", default: false },
        embedder: { type: "string", default: "local" },
        "queue-timeout": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) return "help";
  if (parsed.positionals.length > 1) throw new UsageError(`one dataset directory at most; got ${parsed.positionals.join(" ")}`);
  const given = parsed.positionals[0] ?? DEFAULT_DATASET;
  // From the repository root as documented, or from the working directory if only that has it.
  const fromRoot = path.resolve(repoRoot, given);
  const dir = fs.existsSync(fromRoot) ? fromRoot : path.resolve(given);
  for (const file of ["memories.jsonl", "queries.jsonl"]) {
    if (!fs.existsSync(path.join(dir, file))) throw new UsageError(`${dir} has no ${file}`);
  }
  const timeoutText = parsed.values["queue-timeout"];
  const timeoutS = timeoutText === undefined ? DEFAULT_QUEUE_TIMEOUT_S : Number(timeoutText);
  if (!Number.isFinite(timeoutS) || timeoutS < 0) {
    throw new UsageError(`--queue-timeout takes seconds, e.g. 180; got "${timeoutText}"`);
  }
  return { dir, json: parsed.values.json ?? false, embedder: parsed.values.embedder ?? "local", queueTimeoutMs: timeoutS * 1000 };
}

/** The nearest directory at or above `start` holding memd's package.json. */
export function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "memd") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no memd package.json above ${start}`);
  }
}
