import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MEMORY_KINDS } from "../memory/memory.js";
import { fileStem, isMemoryFilePath, vaultFolder, vaultPath } from "./file-name.js";

const ID = "01JZ4TG8P0X3M9QK5RDWN7B2HC";

describe("fileStem", () => {
  it("names a file after the content's first words and the id's last 8 characters", () => {
    expect(fileStem({ id: ID, content: "Always use pnpm in acme-api; never npm or yarn." })).toBe("always-use-pnpm-in-acme-api-dwn7b2hc");
  });

  it("drops accents and folds compatibility characters to plain ASCII", () => {
    expect(fileStem({ id: ID, content: "Café déjà-vu: ﬁle Ⅻ naïve" })).toBe("cafe-deja-vu-file-xii-naive-dwn7b2hc");
  });

  it("keeps whole words within 48 characters", () => {
    const stem = fileStem({ id: ID, content: "internationalization localization configuration management" });
    expect(stem).toBe("internationalization-localization-configuration-dwn7b2hc");
  });

  it("cuts a single word longer than 48 characters", () => {
    expect(fileStem({ id: ID, content: "x".repeat(60) })).toBe(`${"x".repeat(48)}-dwn7b2hc`);
  });

  it("falls back to 'memory' when no letter or digit is left", () => {
    expect(fileStem({ id: ID, content: "東京の天気 — ☂" })).toBe("memory-dwn7b2hc");
    expect(fileStem({ id: ID, content: "" })).toBe("memory-dwn7b2hc");
  });

  it("is always lowercase ASCII words, at most 6 of them, then the id suffix", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.stringMatching(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/), (content, id) => {
        const stem = fileStem({ id, content });
        expect(stem).toBe(fileStem({ id, content }));
        expect(stem.endsWith(`-${id.slice(-8).toLowerCase()}`)).toBe(true);
        const slug = stem.slice(0, -9);
        expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(slug.length).toBeLessThanOrEqual(48);
        expect(slug.split("-").length).toBeLessThanOrEqual(6);
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });
});

describe("vaultFolder", () => {
  it("puts a memory in <project>/<kind>, keeping letters of any script", () => {
    expect(vaultFolder({ project: "acme-api", kind: "decision" })).toBe("acme-api/decision");
    expect(vaultFolder({ project: "Café Ünïcode 東京", kind: "fact" })).toBe("Café Ünïcode 東京/fact");
  });

  it("makes hostile project names one harmless path segment", () => {
    const cases: [string, string][] = [
      ["../x", "x"],
      ["..", "project"],
      [".", "project"],
      ["a/b", "a-b"],
      ["a\\b", "a-b"],
      [".hidden", "hidden"],
      ["\u0000", "project"],
      ["a\u0000b\nc", "a-b-c"],
      ["CON", "CON-"],
      ["nul.txt", "nul-.txt"],
      ["com1", "com1-"],
      ["console", "console"],
      ['what?<is>:"this"|*', "what--is---this---"],
      ["name. . ", "name"],
      ["-rf", "rf"],
      ["", "project"],
    ];
    for (const [project, folder] of cases) expect(vaultFolder({ project, kind: "fact" })).toBe(`${folder}/fact`);
  });

  it("cuts a long project name to 100 bytes without splitting a character", () => {
    expect(vaultFolder({ project: "a".repeat(300), kind: "fact" })).toBe(`${"a".repeat(100)}/fact`);
    const segment = vaultFolder({ project: "é".repeat(300), kind: "fact" }).split("/")[0] ?? "";
    expect(segment).toBe("é".repeat(50));
    const emoji = vaultFolder({ project: "👩‍💻".repeat(30), kind: "fact" }).split("/")[0] ?? "";
    expect(Buffer.byteLength(emoji)).toBeLessThanOrEqual(100);
    expect(emoji).toBe("👩‍💻".repeat(Math.floor(100 / Buffer.byteLength("👩‍💻"))));
  });

  it("never gives a segment that climbs, hides, or breaks a filesystem, whatever the name", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.constantFrom(...MEMORY_KINDS), (project, kind) => {
        const folder = vaultFolder({ project, kind });
        const [segment, kindSegment, ...rest] = folder.split("/");
        expect(rest).toEqual([]);
        expect(kindSegment).toBe(kind);
        expect(segment).not.toBe("");
        expect(segment).not.toMatch(/^[.\s-]|[.\s]$|[\\<>:"|?*\u0000-\u001f\u007f]/u);
        expect(segment).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i);
        expect(Buffer.byteLength(segment ?? "")).toBeLessThanOrEqual(100);
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });
});

describe("vaultPath", () => {
  it("joins the folder and the file's stem with .md", () => {
    expect(vaultPath({ id: ID, content: "Use pnpm", project: "acme-api", kind: "preference" })).toBe("acme-api/preference/use-pnpm-dwn7b2hc.md");
  });
});

describe("isMemoryFilePath", () => {
  it("takes <project>/<kind>/<name>.md with a kind memd knows, and nothing else", () => {
    expect(isMemoryFilePath("shop/decision/use-stripe.md")).toBe(true);
    expect(isMemoryFilePath("notes/todo.md")).toBe(false);
    expect(isMemoryFilePath("shop/recipes/soup.md")).toBe(false);
    expect(isMemoryFilePath("shop/fact/deeper/x.md")).toBe(false);
    expect(isMemoryFilePath("shop/fact/.x.md.memd-1.tmp")).toBe(false);
    expect(isMemoryFilePath(".obsidian/fact/x.md")).toBe(false);
    expect(isMemoryFilePath("shop/fact/x.txt")).toBe(false);
  });
});
