import { describe, expect, it } from "vitest";
import { InvalidInputError, TooLargeError } from "../errors.js";
import { applyPatch } from "./apply-patch.js";
import { buildMemory } from "./new-memory.js";

const limits = { maxContentBytes: 1024 };
const now = Date.UTC(2026, 10, 29);

describe("buildMemory", () => {
  it("fills defaults from the provenance", () => {
    const human = buildMemory({ content: "Always use pnpm", project: "global", provenance: "human" }, "ID", now, limits);
    expect(human).toMatchObject({ confidence: 0.95, tier: "core", status: "active", importance: 3, kind: "fact" });
    const checkpoint = buildMemory({ content: "Fixed it", project: "p", provenance: "checkpoint" }, "ID", now, limits);
    expect(checkpoint).toMatchObject({ confidence: 0.65, tier: "regular" });
  });

  it("stages what was inferred rather than said", () => {
    const guess = buildMemory({ content: "User seems to prefer tabs", project: "p", provenance: "distilled" }, "ID", now, limits);
    expect(guess.status).toBe("staged");
  });

  it("rejects empty and whitespace-only content", () => {
    expect(() => buildMemory({ content: "  \n ", project: "p" }, "ID", now, limits)).toThrow(InvalidInputError);
  });

  it("rejects content over the byte limit, counting UTF-8 bytes", () => {
    expect(() => buildMemory({ content: "é".repeat(513), project: "p" }, "ID", now, limits)).toThrow(TooLargeError);
    expect(buildMemory({ content: "é".repeat(512), project: "p" }, "ID", now, limits).content).toHaveLength(512);
  });

  it.each([
    ["confidence", { confidence: 1.01 }],
    ["confidence", { confidence: -0.1 }],
    ["confidence", { confidence: Number.NaN }],
    ["importance", { importance: 0 }],
    ["importance", { importance: 6 }],
    ["importance", { importance: 2.5 }],
    ["valence", { valence: -1.5 }],
    ["intensity", { intensity: 2 }],
  ])("rejects %s out of range (%o)", (field, extra) => {
    expect(() => buildMemory({ content: "x", project: "p", ...extra }, "ID", now, limits)).toThrow(
      new RegExp(field),
    );
  });

  it("trims list entries and drops empties and duplicates", () => {
    const m = buildMemory({ content: "x", project: "p", concepts: [" auth ", "auth", "", "jwt"] }, "ID", now, limits);
    expect(m.concepts).toEqual(["auth", "jwt"]);
  });
});

describe("applyPatch", () => {
  const base = buildMemory({ content: "Postgres on 5432", project: "p", concepts: ["postgres"] }, "ID", now, limits);

  it("changes only the fields in the patch and stamps the update time", () => {
    const later = now + 60_000;
    const next = applyPatch(base, { content: "Postgres on 5433" }, later, limits);
    expect(next).toEqual({ ...base, content: "Postgres on 5433", updatedAt: later });
  });

  it("validates patched values like new ones", () => {
    expect(() => applyPatch(base, { confidence: 3 }, now, limits)).toThrow(InvalidInputError);
    expect(() => applyPatch(base, { content: "" }, now, limits)).toThrow(InvalidInputError);
  });
});
