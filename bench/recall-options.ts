import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "./bench-options.js";

export interface RecallOptions {
  /** The dataset directories (memories.jsonl, queries.jsonl), absolute, measured one after the other. */
  dirs: string[];
  /** Default sets that are not on this machine, and so are not measured. */
  missing: string[];
  /** Also print the figures as one JSON object on the last line. */
  json: boolean;
  /** MEMD_EMBEDDER for the daemon. */
  embedder: string;
  /** How long to wait for the embedding queue to drain before searching anyway. */
  queueTimeoutMs: number;
}

/**
 * Measured when no directory is given: the coding-agent dev set in the repository, and the
 * LoCoMo development half beside the repository where it is (CC BY-NC: evaluation only, so it
 * is never copied in).
 */
export const DEFAULT_DATASETS = ["bench/data/eval-dev", "../shared/eval/locomo-dev"];
const DEFAULT_QUEUE_TIMEOUT_S = 180;

export const RECALL_USAGE = `usage: node dist/bench/recall.js [DIR...] [--json] [--embedder local] [--queue-timeout 180]

Loads each recall dataset (DIR/memories.jsonl and DIR/queries.jsonl; default ${DEFAULT_DATASETS.join(" and ")},
relative to the repository, the second where it exists) into the compiled memd on a temporary
MEMD_HOME, waits until every memory is embedded (at most --queue-timeout seconds), runs each query
in keyword, vector and hybrid mode and prints recall@5, recall@10, nDCG@10 and the must-not
violation rate, overall and per kind (any kind label the dataset uses); then asks Suggest with
each query as a prompt and prints what a prompt hook would inject. The ranked runs are written
as JSONL for score.py. Ends with one summary line per set; --json adds one JSON object on the
last line, keyed by dataset.`;

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
  // From the repository root as documented, or from the working directory if only that has it.
  const resolve = (given: string) => {
    const fromRoot = path.resolve(repoRoot, given);
    return fs.existsSync(fromRoot) ? fromRoot : path.resolve(given);
  };
  const hasFiles = (dir: string) => ["memories.jsonl", "queries.jsonl"].every((file) => fs.existsSync(path.join(dir, file)));
  let dirs: string[];
  const missing: string[] = [];
  if (parsed.positionals.length > 0) {
    dirs = parsed.positionals.map(resolve);
    for (const dir of dirs) if (!hasFiles(dir)) throw new UsageError(`${dir} has no memories.jsonl and queries.jsonl`);
  } else {
    dirs = [];
    for (const given of DEFAULT_DATASETS) (hasFiles(resolve(given)) ? dirs : missing).push(resolve(given));
    if (dirs.length === 0) throw new UsageError(`none of the default datasets is here (${DEFAULT_DATASETS.join(", ")})`);
  }
  const timeoutText = parsed.values["queue-timeout"];
  const timeoutS = timeoutText === undefined ? DEFAULT_QUEUE_TIMEOUT_S : Number(timeoutText);
  if (!Number.isFinite(timeoutS) || timeoutS < 0) {
    throw new UsageError(`--queue-timeout takes seconds, e.g. 180; got "${timeoutText}"`);
  }
  return { dirs, missing, json: parsed.values.json ?? false, embedder: parsed.values.embedder ?? "local", queueTimeoutMs: timeoutS * 1000 };
}

/** The nearest directory at or above `start` holding memd's package.json. */
export function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "memd") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no memd package.json above ${start}`);
  }
}
