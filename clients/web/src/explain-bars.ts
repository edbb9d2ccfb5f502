import type { ScoreExplanation } from "../../../gen/memd/v1/memory_service_pb.js";

/** One bar of a result's score breakdown: what it measures, how full it is (0..1), and its number in words. */
export interface ExplainBar {
  source: "keyword" | "vector" | "graph" | "decay" | "frequency" | "confidence";
  label: string;
  fraction: number;
  text: string;
}

/**
 * The bars drawn under a search result, one per part of its score. Keyword scores (BM25) and the
 * frequency and confidence boosts have no fixed scale, so they are drawn against the largest in
 * the same answer; vector similarity and decay are 0..1 already; the graph bar is full when the
 * entity graph reached the memory, and says how.
 */
export function explainBars(explanation: ScoreExplanation, all: readonly ScoreExplanation[]): ExplainBar[] {
  const largest = (pick: (e: ScoreExplanation) => number) => Math.max(...all.map(pick), Number.MIN_VALUE);
  const share = (value: number, max: number) => clamp(value / max);
  return [
    {
      source: "keyword",
      label: "keyword",
      fraction: share(explanation.keywordScore, largest((e) => e.keywordScore)),
      text: explanation.keywordRank > 0 ? `#${explanation.keywordRank}` : "-",
    },
    {
      source: "vector",
      label: "vector",
      fraction: clamp(explanation.vectorSimilarity),
      text: explanation.vectorRank > 0 ? `${explanation.vectorSimilarity.toFixed(2)} #${explanation.vectorRank}` : "-",
    },
    { source: "graph", label: "graph", fraction: explanation.graphPath === "" ? 0 : 1, text: explanation.graphPath === "" ? "-" : explanation.graphPath },
    { source: "decay", label: "decay weight", fraction: clamp(explanation.decay), text: explanation.decay.toFixed(2) },
    { source: "frequency", label: "frequency", fraction: share(explanation.frequency, largest((e) => e.frequency)), text: explanation.frequency.toFixed(2) },
    { source: "confidence", label: "confidence", fraction: share(explanation.confidence, largest((e) => e.confidence)), text: explanation.confidence.toFixed(2) },
  ];
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
