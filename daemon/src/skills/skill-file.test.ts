import { describe, expect, it } from "vitest";
import { parseSkillFile } from "./skill-file.js";

describe("parseSkillFile", () => {
  it("reads plain, quoted and commented scalars", () => {
    const parsed = parseSkillFile("---\nname: pdf-tools # a comment\ndescription: 'It''s for PDFs: fill forms'\nversion: \"1.0\"\n---\n# Body\ntext\n");
    expect(parsed).toEqual({ fields: { name: "pdf-tools", description: "It's for PDFs: fill forms", version: "1.0" }, body: "# Body\ntext" });
  });

  it("reads folded and literal blocks and plain values continued on indented lines", () => {
    const parsed = parseSkillFile(
      "---\nname: review\ndescription: >\n  Reviews code.\n  Use when asked.\nnotes: |\n  line one\n  line two\nsummary: one\n  two\n---\nbody",
    );
    expect(parsed?.fields).toMatchObject({ description: "Reviews code. Use when asked.", notes: "line one\nline two", summary: "one two" });
  });

  it("returns null without a frontmatter block or without its closing line", () => {
    expect(parseSkillFile("# Just markdown\n")).toBeNull();
    expect(parseSkillFile("---\nname: x\nno end")).toBeNull();
  });

  it("tolerates a byte order mark and CRLF line ends", () => {
    expect(parseSkillFile("\uFEFF---\r\nname: x\r\n---\r\nbody")?.fields.name).toBe("x");
  });
});
