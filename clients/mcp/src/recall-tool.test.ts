import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { MemoryKind } from "../../../gen/memd/v1/memory_pb.js";
import { RecallResponseSchema } from "../../../gen/memd/v1/memory_service_pb.js";
import { formatRecall } from "./recall-tool.js";

const SKIPPED = "vector search needs the ollama/nomic-embed-text embedder, which failed: connection refused";

describe("formatRecall", () => {
  it("tells the agent when matching by meaning was left out, under the head line", () => {
    const res = create(RecallResponseSchema, {
      memories: [{ id: "01J00000000000000000000001", kind: MemoryKind.DECISION, project: "acme", summary: "Refresh tokens live in Postgres" }],
      project: "acme",
      depth: 1,
      tokens: 12,
      vectorsSkipped: SKIPPED,
    });
    const lines = formatRecall(res).split("\n");
    expect(lines[0]).toBe("1 memories, project acme, depth 1, ~12 tokens");
    expect(lines[1]).toBe(`searched by keywords and entities only: ${SKIPPED}`);
    expect(lines[2]).toContain("Refresh tokens live in Postgres");
  });

  it("says so too when nothing matched, since an empty answer then may not mean there is nothing", () => {
    const text = formatRecall(create(RecallResponseSchema, { project: "acme", depth: 1, vectorsSkipped: SKIPPED }));
    expect(text).toBe(`no memories match (project acme).\nsearched by keywords and entities only: ${SKIPPED}\nIf you learn something worth keeping, save it with memory_save.`);
  });

  it("adds nothing when vectors took part", () => {
    const text = formatRecall(create(RecallResponseSchema, { project: "acme", depth: 1 }));
    expect(text).toBe("no memories match (project acme).\nIf you learn something worth keeping, save it with memory_save.");
  });
});
