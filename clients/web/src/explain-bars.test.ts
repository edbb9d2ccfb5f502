import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ScoreExplanationSchema } from "../../../gen/memd/v1/memory_service_pb.js";
import { explainBars } from "./explain-bars.js";

describe("explainBars", () => {
  it("draws keyword, frequency and confidence against the largest in the answer, and similarity and decay as they are", () => {
    const first = create(ScoreExplanationSchema, { keywordRank: 1, keywordScore: 8, vectorRank: 2, vectorSimilarity: 0.62, decay: 0.9, frequency: 1.2, confidence: 1.1 });
    const second = create(ScoreExplanationSchema, { keywordScore: 0, vectorRank: 1, vectorSimilarity: 0.8, graphPath: "ECONNRESET", decay: 0.4, frequency: 0.6, confidence: 1.1 });
    const bars = explainBars(first, [first, second]);
    expect(bars.map((b) => [b.source, b.fraction, b.text])).toEqual([
      ["keyword", 1, "#1"],
      ["vector", 0.62, "0.62 #2"],
      ["graph", 0, "-"],
      ["decay", 0.9, "0.90"],
      ["frequency", 1, "1.20"],
      ["confidence", 1, "1.10"],
    ]);
    const other = explainBars(second, [first, second]);
    expect(other.find((b) => b.source === "keyword")).toMatchObject({ fraction: 0, text: "-" });
    expect(other.find((b) => b.source === "graph")).toMatchObject({ fraction: 1, text: "ECONNRESET" });
    expect(other.find((b) => b.source === "frequency")?.fraction).toBeCloseTo(0.5);
  });

  it("draws an empty bar, never a broken one, for a breakdown of zeros", () => {
    const zero = create(ScoreExplanationSchema, {});
    expect(explainBars(zero, [zero]).every((b) => b.fraction === 0)).toBe(true);
  });
});
