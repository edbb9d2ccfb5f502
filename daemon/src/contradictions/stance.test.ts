import { describe, expect, it } from "vitest";
import { stanceAt } from "./stance.js";

function stanceOf(sentence: string, word: string) {
  const at = sentence.indexOf(word);
  return stanceAt(sentence, at, at + word.length);
}

describe("stanceAt", () => {
  it("reads what a change leaves and what it arrives at", () => {
    expect(stanceOf("Moved the blog from Ghost to Hugo.", "Ghost")).toBe("left");
    expect(stanceOf("Moved the blog from Ghost to Hugo.", "Hugo")).toBe("current");
    expect(stanceOf("We replaced Jest with Vitest.", "Jest")).toBe("left");
    expect(stanceOf("We replaced Jest with Vitest.", "Vitest")).toBe("current");
  });

  it("reads things said to be gone after they are named", () => {
    expect(stanceOf("The Datadog contract was cancelled.", "Datadog")).toBe("left");
    expect(stanceOf("Don't run pnpm install any more.", "pnpm")).toBe("left");
    expect(stanceOf("We turned Dependabot off.", "Dependabot")).toBe("left");
  });

  it("tells a local denial from a thing that holds", () => {
    expect(stanceOf("Postgres in tests, not SQLite.", "SQLite")).toBe("denied");
    expect(stanceOf("Postgres in tests, not SQLite.", "Postgres")).toBe("holds");
    expect(stanceOf("Always use pnpm, never npm or yarn.", "yarn")).toBe("denied");
  });

  it("reads 'now' as the current state", () => {
    expect(stanceOf("The port is 5433 now.", "5433")).toBe("current");
  });
});
