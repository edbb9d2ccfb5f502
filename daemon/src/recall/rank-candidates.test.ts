import { describe, expect, it } from "vitest";
import type { RankingFacets } from "../store/store.js";
import type { Candidate, CandidateLists, GraphCandidate } from "./gather-candidates.js";
import { DEFAULT_TUNING, rankCandidates, withContext } from "./rank-candidates.js";

const NOW = Date.UTC(2026, 10, 1);

function facets(seq: number, over: Partial<RankingFacets> = {}): RankingFacets {
  return {
    id: `m${String(seq).padStart(3, "0")}`, project: "api", kind: "fact", status: "active", sessionId: "", pinned: false,
    createdAt: NOW, reviewAt: null, importance: 3, intensity: 0, confidence: 0.5, accessCount: 0, ...over,
  };
}

const hit = (seq: number, score: number, over: Partial<RankingFacets> = {}): Candidate => ({ seq, score, facets: facets(seq, over) });

function lists(over: Partial<CandidateLists>): CandidateLists {
  return {
    keyword: [], keywordForeign: [], expanded: [], expandedForeign: [], general: [], generalForeign: [], vector: [], vectorForeign: [], graph: [], inWindow: [],
    neighbours: new Map(), pointed: new Set(), ...over,
  };
}

const order = (l: CandidateLists) => rankCandidates(l, { now: NOW, window: null }).map((r) => r.candidate.seq);

describe("rankCandidates", () => {
  it("lets another project's keyword match in only where it beats the local ones by the foreign share", () => {
    const local = [hit(1, 10), hit(2, 6)];
    // 12 x 0.7 = 8.4: between the local first and second.
    expect(order(lists({ keyword: local, keywordForeign: [hit(9, 12, { project: "web" })] }))).toEqual([1, 9, 2]);
    // 8 x 0.7 = 5.6: below both.
    expect(order(lists({ keyword: local, keywordForeign: [hit(9, 8, { project: "web" })] }))).toEqual([1, 2, 9]);
  });

  it("leaves out another project's conversation unless the query points to that project", () => {
    const local = [hit(1, 10), hit(2, 6)];
    const chat = hit(9, 20, { project: "web", kind: "context" });
    expect(order(lists({ keyword: local, keywordForeign: [chat] }))).toEqual([1, 2]);
    expect(order(lists({ keyword: local, keywordForeign: [chat], pointed: new Set(["web"]) }))).toEqual([9, 1, 2]);
  });

  it("lets another project's facts, decisions, preferences, procedures and rules travel", () => {
    for (const kind of ["fact", "decision", "preference", "procedure", "rule"] as const) {
      expect(order(lists({ keyword: [hit(1, 10)], keywordForeign: [hit(9, 20, { project: "web", kind })] }))).toEqual([9, 1]);
    }
    for (const kind of ["episode", "trace", "idea", "task", "context"] as const) {
      expect(order(lists({ keyword: [hit(1, 10)], keywordForeign: [hit(9, 20, { project: "web", kind })] }))).toEqual([1]);
    }
  });

  it("counts other projects' vectors only when their best keyword match leads", () => {
    const foreignVector = [hit(9, 0.9, { project: "web" })];
    const quiet = rankCandidates(lists({ keyword: [hit(1, 10)], vectorForeign: foreignVector }), { now: NOW, window: null });
    expect(quiet.map((r) => r.candidate.seq)).toEqual([1]);
    const leading = rankCandidates(
      lists({ keyword: [hit(1, 10)], keywordForeign: [hit(8, 20, { project: "web" })], vectorForeign: foreignVector }),
      { now: NOW, window: null },
    );
    expect(leading.map((r) => r.candidate.seq)).toContain(9);
  });

  it("gives a graph match through an entity that many memories share little weight", () => {
    const graph = (score: number): GraphCandidate[] => [{ ...hit(5, score), path: ["caroline"] }];
    const specific = rankCandidates(lists({ keyword: [hit(1, 10), hit(2, 9)], graph: graph(1) }), { now: NOW, window: null });
    const common = rankCandidates(lists({ keyword: [hit(1, 10), hit(2, 9)], graph: graph(0.01) }), { now: NOW, window: null });
    const scoreOf = (ranked: typeof specific) => ranked.find((r) => r.candidate.seq === 5)?.fused.score ?? 0;
    expect(scoreOf(common)).toBeCloseTo(scoreOf(specific) / 100, 10);
  });

  it("ranks a reply that shares no word with the query through the question just before it", () => {
    const question = hit(1, 10, { sessionId: "s1" });
    const reply = hit(2, 0, { sessionId: "s1" });
    const ranked = rankCandidates(
      lists({ keyword: [question, hit(3, 4), hit(4, 3)], neighbours: new Map([[1, [reply]]]) }),
      { now: NOW, window: null },
    );
    expect(ranked.map((r) => r.candidate.seq)).toEqual([1, 2, 3, 4]);
    expect(ranked[1]?.context).toBeCloseTo((ranked[0]?.fused.score ?? 0) * DEFAULT_TUNING.context, 10);
    expect(ranked[0]?.context).toBe(0);
  });

  it("orders equal scores by id, whatever order the lists came in", () => {
    // The graph and the time window weigh the same: each one's first place scores alike.
    const graphFirst = { ...hit(2, 1), path: ["stripe"] };
    expect(order(lists({ graph: [graphFirst], inWindow: [hit(1, 0)] }))).toEqual([1, 2]);
    expect(order(lists({ inWindow: [hit(2, 0)], graph: [{ ...hit(1, 1), path: ["stripe"] }] }))).toEqual([1, 2]);
  });
});

describe("withContext", () => {
  it("gives each memory a share of its best neighbour's score, both ways, and nothing without neighbours", () => {
    const lift = withContext(
      [{ seq: 1, score: 1 }, { seq: 2, score: 0.2 }, { seq: 5, score: 0.6 }],
      new Map([[1, [{ seq: 2 }, { seq: 3 }]]]),
      0.5,
    );
    expect(Object.fromEntries(lift)).toEqual({ 1: 0.1, 2: 0.5, 3: 0.5, 5: 0 });
  });

  it("adds nothing with a share of 0", () => {
    const lift = withContext([{ seq: 1, score: 1 }], new Map([[1, [{ seq: 2 }]]]), 0);
    expect(Object.fromEntries(lift)).toEqual({ 1: 0 });
  });
});
