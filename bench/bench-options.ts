import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { CHECK_OPTION, CHECK_USAGE } from "./targets.js";

/** The parts of the benchmark, in the order the report shows them. */
export const SECTIONS = ["save", "lock", "embed", "onnx", "drain", "vectors", "hybrid", "hooks", "memory", "mcp", "vault", "viewer"] as const;
export type Section = (typeof SECTIONS)[number];

export interface BenchOptions {
  /** Which parts to run. */
  sections: ReadonlySet<Section>;
  /** Store sizes for the Save/Get/Search latencies, ascending; the store grows from one to the next. */
  sizes: number[];
  /** Saves whose embedding queue is drained; undefined means DEFAULT_DRAIN, lowered if the run would take too long. */
  drain: number | undefined;
  /** Numbers of vectors for the in-process KNN measurement. */
  vectorSizes: number[];
  /** Memories in the daemon that measures hybrid search. */
  hybridSize: number;
  /** Memories the daemon with the 6-layer ONNX model embeds before its RSS is read; 0 skips that daemon. */
  onnxMemories: number;
  /** Memories the vault's rebuild is measured with. */
  vaultMemories: number;
  /** Another built checkout's daemon (its dist/daemon/src/main.js), measured beside this one by "memory"; undefined: none. */
  baselineDaemon: string | undefined;
  /** Also print the results as one JSON object on the last line. */
  json: boolean;
  /** Exit 1 when a target was missed. */
  check: boolean;
}

export const DEFAULT_SIZES = [10_000, 100_000];
export const DEFAULT_DRAIN = 10_000;
export const DEFAULT_VECTOR_SIZES = [10_000, 100_000, 1_000_000];
export const DEFAULT_HYBRID_SIZE = 100_000;
export const DEFAULT_ONNX_MEMORIES = 100_000;
export const DEFAULT_VAULT_MEMORIES = 100_000;

export const USAGE = `usage: node dist/bench/run.js [--only ${SECTIONS.join(",")}] [--sizes 10000,100000]
                          [--drain N] [--vector-sizes 10000,100000,1000000] [--hybrid-size 100000]
                          [--onnx-memories 100000] [--vault-memories 100000] [--baseline DIR] [--check] [--json]

Every part starts its own memd (the compiled binary) on a temporary MEMD_HOME, or runs in-process:
  save     Save, Get and keyword Search p50/p99 over the Unix socket at each of --sizes, with the
           daemon's RSS (embeddings off, so that only the store and the RPC are measured), once the
           imported memories are checked for contradictions; with --baseline DIR, also the daemon of
           the memd checkout built in DIR, in the same run, and the difference
  lock     Health, Get and keyword Search p50/p99 in a daemon holding 10k memories, with the database
           free and while another process holds its write lock (BEGIN IMMEDIATE) and Saves wait
  embed    the offline model's throughput in this process (one text per call, and 32 per call),
           and its single-query embedding time
  onnx     the onnx embedder in this process on random-weight encoders of all-MiniLM-L6-v2's and
           bge-small-en-v1.5's shapes (int8): memories/s 32 per call, a query's time, memory; then a
           daemon with the 6-layer one embeds --onnx-memories imported memories (about 5 minutes for
           100k; 0 skips it) and its RSS is read
  drain    N Saves to a daemon with MEMD_EMBEDDER=local, the time until its embedding queue is
           empty, and its RSS with the model loaded. Without --drain, N is ${DEFAULT_DRAIN.toLocaleString("en-US")}, lowered
           when the rate measured by "embed" says the whole run would take over ~12 minutes
  vectors  the vector index in-process: KNN p50/p99 and recall@10 at each of --vector-sizes
  hybrid   Search p50/p99 in HYBRID, VECTOR and KEYWORD mode in a daemon holding --hybrid-size
           memories with vectors, embedded by a stand-in Ollama served from this process
  hooks    memd-hook UserPromptSubmit p50/p99 from spawn to exit against warm daemons (10k memories
           keyword only; 10k with vectors from a stand-in embedder; 300 with the local model), beside
           Node's bare start-up, and the time to fail open with no daemon and with a hung socket
  memory   the daemon's RSS at each of --sizes with the default embedder (the static table) and the
           old one (the full local model, read after 90 s of embedding), on the same memories; with
           --baseline DIR, also the daemon of the memd checkout built in DIR (e.g. a clean build of
           main) with the full local model, in the same run
  mcp      memd-mcp from spawn to its initialize response, and tools/list, with the daemon down and up
  vault    Save p50/p99 with the vault off and on (10k memories), a Save until its file exists, a file
           edit until Search finds it, the writer's files per second, and a rebuild of --vault-memories
           memories from the vault alone after the database is deleted (keyword only)
  viewer   the web viewer in Debian's Chromium against 100k memories: first page usable, and search
           as you type, timed inside the page; the size of its JavaScript
--only runs the named parts (comma-separated); --json adds one JSON object with every number on the last line.
${CHECK_USAGE}`;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export function parseBenchOptions(argv: readonly string[]): BenchOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        only: { type: "string" },
        sizes: { type: "string" },
        drain: { type: "string" },
        "vector-sizes": { type: "string" },
        "hybrid-size": { type: "string" },
        "onnx-memories": { type: "string" },
        "vault-memories": { type: "string" },
        baseline: { type: "string" },
        json: { type: "boolean", default: false },
        ...CHECK_OPTION,
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values;
  if (values.help) return "help";
  return {
    sections: values.only === undefined ? new Set(SECTIONS) : parseSections(values.only),
    sizes: values.sizes === undefined ? DEFAULT_SIZES : parseSizes("--sizes", values.sizes),
    drain: values.drain === undefined ? undefined : parseWhole("--drain", values.drain),
    vectorSizes: values["vector-sizes"] === undefined ? DEFAULT_VECTOR_SIZES : parseSizes("--vector-sizes", values["vector-sizes"]),
    hybridSize: values["hybrid-size"] === undefined ? DEFAULT_HYBRID_SIZE : parseWhole("--hybrid-size", values["hybrid-size"]),
    onnxMemories: values["onnx-memories"] === undefined ? DEFAULT_ONNX_MEMORIES : parseWhole("--onnx-memories", values["onnx-memories"]),
    vaultMemories: values["vault-memories"] === undefined ? DEFAULT_VAULT_MEMORIES : parseWhole("--vault-memories", values["vault-memories"]),
    baselineDaemon: values.baseline === undefined ? undefined : baselineDaemon(values.baseline),
    json: values.json ?? false,
    check: values.check ?? false,
  };
}

function baselineDaemon(checkout: string): string {
  const bin = path.resolve(checkout, "dist/daemon/src/main.js");
  if (!fs.existsSync(bin)) throw new UsageError(`--baseline takes a built memd checkout; ${bin} is missing (run npm run build there)`);
  return bin;
}

function parseSections(text: string): Set<Section> {
  const names = text.split(",").map((part) => part.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--only takes some of ${SECTIONS.join(",")}; got "${text}"`);
  }
  return new Set(names as Section[]);
}

function parseSizes(flag: string, text: string): number[] {
  const sizes = text.split(",").map((part) => Number(part.trim().replace(/_/g, "")));
  if (sizes.length === 0 || sizes.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new UsageError(`${flag} takes positive whole numbers separated by commas, e.g. 10000,100000; got "${text}"`);
  }
  return [...new Set(sizes)].sort((a, b) => a - b);
}

function parseWhole(flag: string, text: string): number {
  const n = Number(text.trim().replace(/_/g, ""));
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} takes a positive whole number; got "${text}"`);
  return n;
}
