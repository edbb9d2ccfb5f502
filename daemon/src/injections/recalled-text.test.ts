import { describe, expect, it } from "vitest";
import { buildMemory } from "../memory/new-memory.js";
import type { Explanation } from "../recall/hybrid-search.js";
import { type RecalledForRecord, recallReason, recalledText } from "./recalled-text.js";

const limits = { maxContentBytes: 65536 };
const memory = buildMemory({ content: "Retries use exponential backoff. The cap is 30 s.", problem: "webhooks retried too fast", project: "shop" }, "01JRECALLED000000000000001", 0, limits);
const explanation = (extra: Partial<Explanation>): Explanation => ({
  keywordRank: 0, keywordScore: 0, vectorRank: 0, vectorSimilarity: 0, graphPath: "", relevance: 0, decay: 1, frequency: 1, confidence: 1, context: 1, ...extra,
});
const item = (extra: Partial<RecalledForRecord> = {}): RecalledForRecord => ({ memory, summary: "Retries use exponential backoff.", associated: false, explanation: undefined, ...extra });

describe("a recall in the injection record", () => {
  it("counts each memory's id and summary at depth 1, its whole text at depth 2", () => {
    expect(recalledText([item()], false)).toBe("01JRECALLED000000000000001 Retries use exponential backoff.");
    expect(recalledText([item(), item()], true)).toBe(
      ["01JRECALLED000000000000001\nRetries use exponential backoff. The cap is 30 s.\nwebhooks retried too fast", "01JRECALLED000000000000001\nRetries use exponential backoff. The cap is 30 s.\nwebhooks retried too fast"].join("\n\n"),
    );
  });

  it("says which searches found a memory, or that it was asked for or associated", () => {
    expect(recallReason(item({ explanation: explanation({ keywordRank: 1, vectorRank: 3, graphPath: "webhook" }) }))).toBe("keyword rank 1, vector rank 3, graph webhook");
    expect(recallReason(item({ explanation: explanation({ vectorRank: 2 }) }))).toBe("vector rank 2");
    expect(recallReason(item())).toBe("asked for by id");
    expect(recallReason(item({ associated: true }))).toBe("associated with a match");
  });
});
