import { parseArgs } from "node:util";

export interface BenchOptions {
  /** Store sizes to measure at, ascending; the store grows from one to the next. */
  sizes: number[];
  /** Also print the results as one JSON object on the last line. */
  json: boolean;
}

export const DEFAULT_SIZES = [10_000, 100_000];

export const USAGE = `usage: node dist/bench/run.js [--sizes 10000,100000] [--json]

Starts the compiled memd on a temporary MEMD_HOME, imports synthetic memories up to each size
and prints p50/p99 latency of Save, Get and keyword Search over the Unix socket, with the
daemon's RSS. --json adds one JSON object with every number on the last line.`;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export function parseBenchOptions(argv: readonly string[]): BenchOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        sizes: { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) return "help";
  const sizes = parsed.values.sizes === undefined ? DEFAULT_SIZES : parseSizes(parsed.values.sizes);
  return { sizes, json: parsed.values.json ?? false };
}

function parseSizes(text: string): number[] {
  const sizes = text.split(",").map((part) => Number(part.trim().replace(/_/g, "")));
  if (sizes.length === 0 || sizes.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new UsageError(`--sizes takes positive whole numbers separated by commas, e.g. 10000,100000; got "${text}"`);
  }
  return [...new Set(sizes)].sort((a, b) => a - b);
}
