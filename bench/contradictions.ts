import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { readClaims } from "../daemon/src/contradictions/claims.js";
import { judgeContradiction, LIKELY_CONTRADICTION } from "../daemon/src/contradictions/judge.js";
import { enumParser } from "../clients/cli/src/enums.js";
import { MemoryKindSchema } from "../gen/memd/v1/memory_pb.js";
import { type LabelledPair, PARTS, type PartName, type PartScore, readPairs, scorePart, TARGETS, type Verdicts } from "./contradiction-pairs.js";
import { startBenchDaemon } from "./daemon-process.js";
import { findRepoRoot } from "./recall-options.js";
import { formatTable, numericColumns } from "./table.js";
import { CHECK_OPTION, CHECK_USAGE, targetsExitCode, verdict } from "./targets.js";

/** A labelled pair names its kinds as memctl does ("decision"). */
const kindOf = enumParser(MemoryKindSchema);

const USAGE = `usage: node dist/bench/contradictions.js [--rules-only] [--check] [--misses tune|lme] [--json]

Scores contradiction detection on the labelled pairs of bench/data/contradictions (see its README):
the rules alone, in this process; end to end, each pair saved into a project of its own of the
compiled memd (keyword only: what Save answers with); and with every old memory in one project,
where Save must find the pair's among the others. Precision is the share of reported pairs that
contradict, recall the share of contradicting pairs reported; the targets are precision >= ${TARGETS.precision}
at recall >= ${TARGETS.recall}, and a part below them says MISSED. ${CHECK_USAGE}
--misses prints the missed and wrongly reported pairs of the tune part or the lme part (never of the
held-out part, which is reported only as numbers). --rules-only skips the daemon.`;

interface Options {
  rulesOnly: boolean;
  check: boolean;
  misses: "tune" | "lme" | undefined;
  json: boolean;
}

function parseOptions(argv: readonly string[]): Options | "help" {
  const { values } = parseArgs({
    args: [...argv],
    options: { "rules-only": { type: "boolean" }, ...CHECK_OPTION, misses: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean" } },
  });
  if (values.help) return "help";
  if (values.misses !== undefined && values.misses !== "tune" && values.misses !== "lme") {
    throw new Error(`--misses takes tune or lme, not ${values.misses}: the held-out part is never shown pair by pair`);
  }
  return { rulesOnly: values["rules-only"] ?? false, check: values.check ?? false, misses: values.misses as Options["misses"], json: values.json ?? false };
}

/** What the rules say of each pair, in this process. */
function rulesVerdicts(pairs: readonly LabelledPair[]): Map<string, boolean> {
  return new Map(pairs.map((p) => [p.id, (judgeContradiction(readClaims(p.new.content), readClaims(p.old.content))?.score ?? 0) >= LIKELY_CONTRADICTION]));
}

/** What Save answers for each pair: the old memory saved, then the new one, in a project of the pair's own. */
async function daemonVerdicts(pairs: readonly LabelledPair[]): Promise<Map<string, boolean>> {
  const daemon = await startBenchDaemon({ MEMD_EMBEDDER: "none", MEMD_LOG_LEVEL: "warn" });
  try {
    const verdicts = new Map<string, boolean>();
    for (const pair of pairs) {
      const project = `pair-${pair.id}`;
      const old = await daemon.clients.memory.save({ content: pair.old.content, kind: kindOf(pair.old.kind), project });
      const saved = await daemon.clients.memory.save({ content: pair.new.content, kind: kindOf(pair.new.kind), project });
      verdicts.set(pair.id, saved.contradictions.some((c) => c.other?.id === old.memory?.id));
    }
    return verdicts;
  } finally {
    await daemon.stop();
  }
}

/** Recall among many memories, and how often Save names other memories than the pair's. */
interface CrowdedScore {
  pairs: number;
  contradict: number;
  /** Contradicting pairs whose new memory's Save named the pair's old one. */
  found: number;
  /** Pairs whose Save named some memory other than the pair's old one (another pair's, often on the same subject). */
  namedOthers: number;
}

/**
 * Every old memory saved into one project first, then each new memory saved there and archived
 * again before the next: the pair's old memory must be found among all the others, as in a
 * real project where many memories speak of the same things.
 */
async function crowdedRun(pairs: readonly LabelledPair[]): Promise<Map<string, { own: boolean; others: number }>> {
  const daemon = await startBenchDaemon({ MEMD_EMBEDDER: "none", MEMD_LOG_LEVEL: "warn" });
  try {
    const project = "crowded";
    const oldIds = new Map<string, string>();
    for (const pair of pairs) {
      const old = await daemon.clients.memory.save({ content: pair.old.content, kind: kindOf(pair.old.kind), project });
      // Pairs share some old memories word for word: the first one saved stands for all.
      oldIds.set(pair.id, old.mergedInto || (old.memory?.id ?? ""));
    }
    const outcome = new Map<string, { own: boolean; others: number }>();
    for (const pair of pairs) {
      const saved = await daemon.clients.memory.save({ content: pair.new.content, kind: kindOf(pair.new.kind), project });
      const named = saved.contradictions.map((c) => c.other?.id);
      outcome.set(pair.id, { own: named.includes(oldIds.get(pair.id)), others: named.filter((id) => id !== oldIds.get(pair.id)).length });
      if (!saved.mergedInto && saved.memory) await daemon.clients.memory.archive({ id: saved.memory.id, reason: "bench: the next pair" });
    }
    return outcome;
  } finally {
    await daemon.stop();
  }
}

function crowdedScore(pairs: readonly LabelledPair[], outcome: ReadonlyMap<string, { own: boolean; others: number }>): CrowdedScore {
  const contradicting = pairs.filter((p) => p.label === "contradict");
  return {
    pairs: pairs.length,
    contradict: contradicting.length,
    found: contradicting.filter((p) => outcome.get(p.id)?.own === true).length,
    namedOthers: pairs.filter((p) => (outcome.get(p.id)?.others ?? 0) > 0).length,
  };
}

function row(what: string, name: string, score: PartScore): string[] {
  return [
    name,
    String(score.pairs),
    String(score.contradict),
    String(score.flagged),
    String(score.truePositives),
    `${score.falseCompatible} / ${score.falseDifferent}`,
    score.precision.toFixed(3),
    score.recall.toFixed(3),
    verdict(score.met, `contradictions, ${what}, ${name}: precision >= ${TARGETS.precision} at recall >= ${TARGETS.recall}`),
  ];
}

function table(what: string, title: string, parts: readonly [string, PartScore][]): string {
  const columns = numericColumns(["part", "pairs", "contradict", "reported", "right", "wrong: compatible / different", "precision", "recall", "target"]);
  return `${title}\n\n${formatTable(columns, parts.map(([name, score]) => row(what, name, score)))}`;
}

function misses(pairs: readonly LabelledPair[], verdicts: Verdicts): string[] {
  return pairs.flatMap((p) => {
    const flagged = verdicts.get(p.id) === true;
    if (flagged === (p.label === "contradict")) return [];
    const finding = judgeContradiction(readClaims(p.new.content), readClaims(p.old.content));
    const why = finding ? `${finding.score.toFixed(2)} ${finding.subject}: ${finding.newer} vs ${finding.older}` : "nothing found";
    return [`${flagged ? "WRONG" : "MISSED"} ${p.id} [${p.label}] (${why})\n  old: ${p.old.content}\n  new: ${p.new.content}`];
  });
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench:contradictions: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const dir = path.join(findRepoRoot(path.dirname(fileURLToPath(import.meta.url))), "bench/data/contradictions");
  const parts = PARTS.map((part) => ({ name: part.name as PartName, pairs: readPairs(dir, part.file) }));
  const all = parts.flatMap((p) => p.pairs);
  const coding = parts.filter((p) => p.name.startsWith("coding")).flatMap((p) => p.pairs);
  const scored = (verdicts: Verdicts): [string, PartScore][] => [
    ...parts.map((p): [string, PartScore] => [p.name, scorePart(p.pairs, verdicts)]),
    ["coding, tune and held-out", scorePart(coding, verdicts)],
    ["all", scorePart(all, verdicts)],
  ];

  let crowdedReport: Record<string, CrowdedScore> | undefined;
  const rules = rulesVerdicts(all);
  const reports: Record<string, [string, PartScore][]> = { rules: scored(rules) };
  process.stdout.write(`${table("the rules alone", `Contradictions found by the rules alone (score >= ${LIKELY_CONTRADICTION}), in this process`, reports.rules ?? [])}\n\n`);
  if (!options.rulesOnly) {
    const saved = await daemonVerdicts(all);
    reports.save = scored(saved);
    process.stdout.write(`${table("Save's answer", "Contradictions named in Save's answer, end to end (compiled memd, keyword only, each pair in its own project)", reports.save)}\n\n`);
    const crowded = await crowdedRun(all);
    const rows = [...parts.map((p) => [p.name, crowdedScore(p.pairs, crowded)] as const), ["all", crowdedScore(all, crowded)] as const];
    crowdedReport = Object.fromEntries(rows);
    const columns = numericColumns(["part", "pairs", "contradict", "own old memory named", "recall", "pairs naming other memories"]);
    const lines = rows.map(([name, c]) => [name, String(c.pairs), String(c.contradict), String(c.found), (c.contradict === 0 ? 1 : c.found / c.contradict).toFixed(3), String(c.namedOthers)]);
    process.stdout.write(
      `Save's answer with every old memory in one project (${all.length} memories, many on the same subjects; each new one archived after)\n\n${formatTable(columns, lines)}\n\n`,
    );
  }
  if (options.misses) {
    const part = parts.find((p) => p.name === (options.misses === "tune" ? "coding, tune" : "lme-dev knowledge updates"));
    process.stdout.write(`${misses(part?.pairs ?? [], rules).join("\n")}\n`);
  }
  if (options.json) process.stdout.write(`${JSON.stringify({ ...reports, crowded: crowdedReport })}\n`);
  return targetsExitCode(options.check);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench:contradictions failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
