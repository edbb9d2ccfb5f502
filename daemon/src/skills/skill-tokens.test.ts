import { describe, expect, it } from "vitest";
import { contentStems, stem } from "./skill-tokens.js";

describe("stem", () => {
  it("maps common inflections of a word to one key", () => {
    expect(new Set(["deploy", "deploys", "deployed", "deploying"].map(stem))).toEqual(new Set(["deploy"]));
    expect(new Set(["cache", "caches", "cached", "caching"].map(stem))).toEqual(new Set(["cach"]));
    expect(new Set(["run", "running"].map(stem))).toEqual(new Set(["run"]));
    expect(new Set(["dependency", "dependencies"].map(stem))).toEqual(new Set(["dependency"]));
  });

  it("leaves short words, numbers and -ss/-us/-is endings alone", () => {
    expect(["npm", "2024", "class", "status", "analysis"].map(stem)).toEqual(["npm", "2024", "class", "status", "analysis"]);
  });
});

describe("contentStems", () => {
  it("drops stopwords and instruction filler", () => {
    expect(contentStems("You should always use pnpm, never npm.")).toEqual(new Set(["pnpm", "npm"]));
  });
});
