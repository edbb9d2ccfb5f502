import { readFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { DEFAULT_TUNING } from "../daemon/src/vectors/binary-index.js";
import { createSyntheticCorpus } from "./synthetic-memories.js";
import { runVectorKnnBench } from "./vector-knn.js";
import { runRealRecall } from "./vector-real.js";
import { CHECK_OPTION, CHECK_USAGE, targetsExitCode } from "./targets.js";
import { formatRealTable, formatVectorTable } from "./vector-report.js";

const USAGE = `usage: node dist/bench/vectors.js [--sizes 10000,100000,1000000] [--dimensions 512]
                                [--queries 300] [--real] [--sentences FILE] [--check] [--json]

Measures the in-memory vector index on synthetic clustered embeddings: latency of single
searches (k = 10), recall@10 against brute force, build time and memory, once with every
vector in one partition and once searching one project plus "global".
--real also measures recall@10 on 2,400 texts embedded with the local model (memd's synthetic
memories, or the lines of --sentences FILE); the vectors are cached in the temporary directory.
--json adds one JSON object with every number on the last line. ${CHECK_USAGE}`;

const DEFAULT_SIZES = [10_000, 100_000, 1_000_000];
const REAL_TEXTS = 2400;

async function main(): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: process.argv.slice(2),
      options: {
        sizes: { type: "string" },
        dimensions: { type: "string", default: "512" },
        queries: { type: "string", default: "300" },
        real: { type: "boolean", default: false },
        sentences: { type: "string" },
        ...CHECK_OPTION,
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const sizes = values.sizes === undefined ? DEFAULT_SIZES : wholeNumbers(values.sizes);
  const dimensions = Number(values.dimensions);
  const queries = Number(values.queries);
  if (sizes === undefined || !isPositive(dimensions) || !isPositive(queries)) {
    process.stderr.write(`bench: --sizes, --dimensions and --queries take positive whole numbers\n${USAGE}\n`);
    return 2;
  }

  const started = performance.now();
  const loadAtStart = os.loadavg()[0] ?? 0;
  const rows = await runVectorKnnBench({ sizes, dimensions, queries, progress });
  const realTexts = values.sentences !== undefined ? readLines(values.sentences) : values.real ? memoryTexts() : undefined;
  const real = realTexts === undefined ? undefined : await runRealRecall(realTexts, progress);
  const cpus = os.cpus();
  const lines = [
    `memd vector index benchmark: ${dimensions}-dimensional synthetic clustered embeddings, k = 10, one search at a time`,
    `node ${process.version}, ${process.platform} ${process.arch}, ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? "unknown"}), ` +
      `load average ${loadAtStart.toFixed(2)} at start, ${(os.loadavg()[0] ?? 0).toFixed(2)} at end`,
    `tuning: ${JSON.stringify(DEFAULT_TUNING)}; exact vectors come from an in-process array (SQLite in the daemon)`,
    "",
    formatVectorTable(rows),
  ];
  if (real !== undefined) {
    const source = values.sentences ?? "memd's synthetic memories";
    lines.push("", `Real embeddings (local universal-sentence-encoder, texts from ${source}):`, "", formatRealTable(real));
  }
  lines.push("", `total ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.stdout.write(`${lines.join("\n")}\n`);
  if (values.json) process.stdout.write(`${JSON.stringify({ rows, real })}\n`);
  return targetsExitCode(values.check);
}

function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

function wholeNumbers(text: string): number[] | undefined {
  const numbers = text.split(",").map((part) => Number(part.trim().replace(/_/g, "")));
  return numbers.length > 0 && numbers.every(isPositive) ? numbers : undefined;
}

function isPositive(n: number): boolean {
  return Number.isSafeInteger(n) && n > 0;
}

/** A JSON array of strings, or one text per line. */
function readLines(file: string): string[] {
  const text = readFileSync(file, "utf8");
  if (text.trimStart().startsWith("[")) return (JSON.parse(text) as unknown[]).map(String);
  return text.split("\n").map((line) => line.trim()).filter(Boolean);
}

function memoryTexts(): string[] {
  const next = createSyntheticCorpus(20_240_611).memories(20_240_612);
  return Array.from({ length: REAL_TEXTS }, () => next().content);
}

process.exitCode = await main();
