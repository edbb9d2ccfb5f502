import { describe, expect, it } from "vitest";
import { knownOllamaModel, ollamaModelName, sameOllamaModel } from "./ollama-models.js";

describe("ollama model names", () => {
  it("treats a name without a tag as the :latest tag, as Ollama does", () => {
    expect(sameOllamaModel("nomic-embed-text", "nomic-embed-text:latest")).toBe(true);
    expect(sameOllamaModel("nomic-embed-text:v1.5", "nomic-embed-text:latest")).toBe(false);
    expect(ollamaModelName("nomic-embed-text:latest")).toBe("nomic-embed-text");
  });

  it("knows nomic-embed-text's size and task prefixes under any tag", () => {
    expect(knownOllamaModel("nomic-embed-text:v1.5")).toEqual({ dimensions: 768, documentPrefix: "search_document: ", queryPrefix: "search_query: " });
    expect(knownOllamaModel("some-other-embedder")).toBeUndefined();
  });
});
