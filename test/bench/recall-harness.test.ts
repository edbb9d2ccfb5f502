import { describe, expect, it } from "vitest";
import { type Dataset, type DatasetMemory, type DatasetQuery, halveDataset, sampleDataset, splitByProject } from "../../bench/recall-dataset.js";
import { scoreRun } from "../../bench/recall-metrics.js";
import { parseRecallOptions } from "../../bench/recall-options.js";
import { formatRecallReport, type RecallReport, summaryLine } from "../../bench/recall-report.js";

const memory = (id: string, project: string): DatasetMemory => ({
  id, project, type: "context", content: id, concepts: [], files: [], days_ago: 0, provenance: "save", status: "active",
});
const query = (qid: string, project: string | null, kind: string, relevant: string[]): DatasetQuery => ({ qid, query: qid, project, relevant, must_not: [], kind });

function report(provider: string, fused: number, keyword: number): RecallReport {
  const scores = (value: number) => {
    const mean = { value, count: 1 };
    const all = { "recall@5": mean, "recall@10": mean, "any@5": mean, "any@10": mean, "all@10": mean, "ndcg@10": mean, violations: { value: null, count: 0 } };
    return { all, byKind: new Map([["k", all]]) };
  };
  const latency = { p50Ms: 1, p99Ms: 2 } as never;
  return {
    dataset: { dir: "set", layout: "one-store", stores: 1, memories: 2, queries: 1, unplaced: 0, sampled: false },
    embedder: { setting: provider, provider, model: "", dimensions: 0, state: "ready" },
    load: { seconds: 0, embedSeconds: 0, pendingAtStart: 0, pendingAtEnd: 0, timedOut: false },
    modes: [
      { mode: "keyword", ok: true, scores: scores(keyword), latency },
      { mode: "vector", ok: false, reason: "off" },
      { mode: "hybrid", ok: true, scores: scores(fused), latency },
    ],
    suggest: { ok: false, reason: "off" },
    runsDir: "/tmp",
    totalSeconds: 0,
  };
}

describe("bench:recall", () => {
  it("labels hybrid search without vectors as such and judges no fusion target on it", () => {
    const off = report("none", 0.7, 0.9);
    expect(summaryLine(off)).toContain("hybrid (no vectors) R@5 0.700 vs keyword 0.900");
    expect(summaryLine(off)).not.toContain("LOSES");
    expect(summaryLine(off)).not.toContain("fused");
    expect(formatRecallReport(off)).toContain("| hybrid (no vectors) |");
  });

  it("marks fused recall below the best single source as a loss when vectors took part", () => {
    expect(summaryLine(report("local", 0.7, 0.9))).toContain("fused R@5 0.700 vs keyword 0.900 (LOSES)");
    expect(summaryLine(report("local", 0.95, 0.9))).not.toContain("LOSES");
  });

  it("counts recall_any and all@10 beside the share of relevant memories found", () => {
    const queries = [query("q1", "p", "k", ["a", "b"]), query("q2", "p", "k", ["c"])];
    const ranked = new Map([["q1", ["a", "x", "y", "z", "w", "b"]], ["q2", ["x"]]]);
    const { all } = scoreRun(queries, ranked);
    expect(all["recall@5"].value).toBeCloseTo(0.25);
    expect(all["any@5"].value).toBeCloseTo(0.5);
    expect(all["all@10"].value).toBeCloseTo(0.5);
  });

  it("samples queries evenly over kinds and loads only the projects they need, with global", () => {
    const dataset: Dataset = {
      dir: "d",
      memories: ["p1", "p2", "p3", "p4", "global"].map((p) => memory(`m-${p}`, p)),
      queries: [query("a1", "p1", "a", ["m-p1"]), query("a2", "p2", "a", ["m-p2"]), query("a3", "p3", "a", ["m-p3"]), query("b1", "p4", "b", ["m-p4"])],
    };
    const sample = sampleDataset(dataset, 2);
    expect(sample.queries.map((q) => q.qid)).toEqual(["a2", "b1"]);
    expect(sample.memories.map((m) => m.project).sort()).toEqual(["global", "p2", "p4"]);
    expect(sampleDataset(dataset, 2)).toEqual(sample);
  });

  it("halves a set into tune and held queries, disjoint, half of each kind, the same on every run, each with every memory", () => {
    const projects = Array.from({ length: 10 }, (_, i) => `p${i}`);
    const dataset: Dataset = {
      dir: "d",
      memories: [...projects, "global"].map((p) => memory(`m-${p}`, p)),
      queries: projects.map((p, i) => query(`q${i}`, p, i < 6 ? "a" : "b", [`m-${p}`])),
    };
    const tune = halveDataset(dataset, "tune");
    const held = halveDataset(dataset, "held");
    const ids = (set: Dataset) => set.queries.map((q) => q.qid);
    expect([...ids(tune), ...ids(held)].sort()).toEqual(ids(dataset).sort());
    expect(ids(tune).filter((qid) => ids(held).includes(qid))).toEqual([]);
    for (const half of [tune, held]) expect(half.queries.map((q) => q.kind).sort()).toEqual(["a", "a", "a", "b", "b"]);
    expect(tune.memories).toEqual(dataset.memories);
    expect(halveDataset(dataset, "tune")).toEqual(tune);
  });

  it("splits a set into one store per project that a query is asked in, each with the global memories", () => {
    const dataset: Dataset = {
      dir: "d",
      memories: [memory("m1", "p1"), memory("m2", "p2"), memory("g", "global")],
      queries: [query("q1", "p1", "k", ["m1"]), query("q2", "p2", "k", ["m2"]), query("q3", null, "k", ["m1"])],
    };
    const { parts, unplaced } = splitByProject(dataset);
    expect(parts.map((p) => [p.memories.map((m) => m.id), p.queries.map((q) => q.qid)])).toEqual([[["m1", "g"], ["q1"]], [["m2", "g"], ["q2"]]]);
    expect(unplaced).toBe(1);
  });

  it("takes --half tune or held, and refuses any other half", () => {
    const options = parseRecallOptions(["--half", "held"], process.cwd());
    if (options === "help") throw new Error("help");
    expect(options.half).toBe("held");
    expect(() => parseRecallOptions(["--half", "test"], process.cwd())).toThrow(/--half takes tune or held/);
  });

  it("measures LongMemEval in one store and per project by default, where it is present", () => {
    const options = parseRecallOptions([], process.cwd());
    if (options === "help") throw new Error("help");
    const sets = options.sets.map((s) => `${s.dir.split("/").slice(-1)[0]} ${s.layout}`);
    expect(sets.concat(options.missing.map((dir) => `${dir.split("/").slice(-1)[0]} missing`)).filter((s) => s.startsWith("lme-dev"))).toEqual(
      options.missing.some((dir) => dir.endsWith("lme-dev")) ? ["lme-dev missing"] : ["lme-dev one-store", "lme-dev per-project"],
    );
  });
});
