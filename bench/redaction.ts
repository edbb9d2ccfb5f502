/**
 * What the redactor does to ordinary memories: every memory of the evaluation sets (which hold
 * no secrets) is redacted field by field, and each one the redactor changed is counted, by the
 * type it found. Any change here is a false positive: text a person wrote, lost from search.
 *
 *   npm run bench:redaction                 # this build's redactor
 *   npm run bench:redaction -- --redactor /other/build/dist/daemon/src/redact/redact-secrets.js
 *   npm run bench:redaction -- --show 20    # also print the changed texts
 *
 * Sets: bench/data/eval-dev in the repository, and the development sets under ../shared/eval
 * where they are (not in CI).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { findRepoRoot } from "./recall-options.js";
import { count, formatTable, numericColumns } from "./table.js";

type Redactor = (text: string) => { text: string; findings: { type: string; start: number; end: number }[] };

interface SetResult {
  name: string;
  memories: number;
  changed: number;
  byType: Map<string, number>;
  examples: string[];
  ms: number;
}

const FIELDS = ["content", "problem", "solution"] as const;
const LIST_FIELDS = ["concepts", "files"] as const;

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { redactor: { type: "string" }, show: { type: "string", default: "0" } } });
  const repoRoot = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));
  const module = values.redactor ?? path.join(repoRoot, "dist/daemon/src/redact/redact-secrets.js");
  const { redactSecrets } = (await import(pathToFileURL(path.resolve(module)).href)) as { redactSecrets: Redactor };
  const show = Number(values.show);
  const sets = [
    path.join(repoRoot, "bench/data/eval-dev"),
    ...["dev", "lme-dev", "locomo-dev"].map((name) => path.join(repoRoot, "../shared/eval", name)),
  ];
  const results: SetResult[] = [];
  for (const dir of sets) {
    const file = path.join(dir, "memories.jsonl");
    if (!fs.existsSync(file)) {
      process.stderr.write(`${path.relative(repoRoot, dir)} is not here: not measured\n`);
      continue;
    }
    results.push(measure(path.relative(repoRoot, dir), file, redactSecrets, show));
  }
  process.stdout.write(`redactor: ${module}\n\n`);
  const rows = results.map((r) => [
    r.name,
    count(r.memories),
    count(r.changed),
    [...r.byType].map(([type, n]) => `${type} ${n}`).join(", ") || "-",
    r.ms.toFixed(0),
  ]);
  const columns = numericColumns(["set", "memories", "changed", "found", "ms"]);
  columns[3] = { title: "found" };
  process.stdout.write(`${formatTable(columns, rows)}\n`);
  for (const r of results) for (const example of r.examples) process.stdout.write(`\n${r.name}: ${example}`);
  if (results.some((r) => r.examples.length > 0)) process.stdout.write("\n");
  return 0;
}

function measure(name: string, file: string, redact: Redactor, show: number): SetResult {
  const result: SetResult = { name, memories: 0, changed: 0, byType: new Map(), examples: [], ms: 0 };
  const started = performance.now();
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const memory = JSON.parse(line) as Record<string, unknown>;
    result.memories += 1;
    const texts = [
      ...FIELDS.map((field) => memory[field]).filter((v): v is string => typeof v === "string"),
      ...LIST_FIELDS.flatMap((field) => (Array.isArray(memory[field]) ? (memory[field] as unknown[]) : [])).filter((v): v is string => typeof v === "string"),
    ];
    let changed = false;
    for (const text of texts) {
      const { findings } = redact(text);
      for (const finding of findings) {
        result.byType.set(finding.type, (result.byType.get(finding.type) ?? 0) + 1);
        if (result.examples.length < show) result.examples.push(`${String(memory["id"])} ${finding.type}: …${text.slice(Math.max(0, finding.start - 40), finding.end + 20)}…`);
      }
      changed ||= findings.length > 0;
    }
    if (changed) result.changed += 1;
  }
  result.ms = performance.now() - started;
  return result;
}

process.exitCode = await main();
