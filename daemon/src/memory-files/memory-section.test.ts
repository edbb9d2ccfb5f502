import { describe, expect, it } from "vitest";
import { OWN } from "../memory/author.js";
import { BrokenSectionError, findSection, renderSection, replaceSection, SECTION_BEGIN, SECTION_END } from "./memory-section.js";

const section = renderSection("acme-api", [
  { id: "01JAAAAAAAAAAAAAAAAAAAAAAA", kind: "decision", content: "Auth is Clerk, not custom JWT. We moved in May.", ...OWN },
  { id: "01JBBBBBBBBBBBBBBBBBBBBBBB", kind: "preference", content: "Always use pnpm,\nnever npm.", ...OWN },
]);
const newer = renderSection("acme-api", [{ id: "01JCCCCCCCCCCCCCCCCCCCCCCC", kind: "fact", content: "Postgres listens on 5433.", ...OWN }]);

const userFiles = [
  "",
  "- [pnpm only](feedback_pnpm.md) — use pnpm\n",
  "# Memory index\n\n- [pnpm only](feedback_pnpm.md) — use pnpm\n- [ports](project_ports.md)\n",
  "# Title without a trailing newline",
  "no trailing newline\n\n\nthree blank lines above  \r\nand a CRLF line",
];

describe("renderSection", () => {
  it("lists each memory on one line with its id, kind and first sentence, between the markers", () => {
    const lines = section.trimEnd().split("\n");
    expect(lines[0]).toBe(SECTION_BEGIN);
    expect(lines.at(-1)).toBe(SECTION_END);
    expect(lines).toContain("- `01JAAAAAAAAAAAAAAAAAAAAAAA` decision: Auth is Clerk, not custom JWT.");
    expect(lines).toContain("- `01JBBBBBBBBBBBBBBBBBBBBBBB` preference: Always use pnpm, never npm.");
  });

  it("says so when the project has no memories yet", () => {
    expect(renderSection("acme-api", [])).toContain("No memories yet.");
  });

  it("marks a memory another person wrote with their name and team", () => {
    const text = renderSection("acme-api", [{ id: "01JAAAAAAAAAAAAAAAAAAAAAAA", kind: "rule", content: "Run the deploy script.", author: "bo", editedBy: "", viaTeam: "core" }]);
    expect(text).toContain("- `01JAAAAAAAAAAAAAAAAAAAAAAA` rule: from bo (team core): Run the deploy script.");
  });

  it("never lets memory text close the section early", () => {
    const text = renderSection("p", [{ id: "01JAAAAAAAAAAAAAAAAAAAAAAA", kind: "fact", content: "<!-- memd:end --> tricky", ...OWN }]);
    expect(findSection(`${text}after\n`)).toEqual({ start: 0, end: text.length });
  });
});

describe("replaceSection", () => {
  it.each(userFiles)("inserting then removing the section gives back the file byte for byte (%j)", (original) => {
    const inserted = replaceSection(original, section);
    expect(inserted).toContain(section);
    expect(replaceSection(inserted, null)).toBe(original);
  });

  it.each(userFiles)("replacing the section changes nothing outside it (%j)", (original) => {
    const inserted = replaceSection(original, section);
    const replaced = replaceSection(inserted, newer);
    expect(replaced).not.toContain("01JAAAAAAAAAAAAAAAAAAAAAAA");
    expect(replaced.replace(newer, "")).toBe(inserted.replace(section, ""));
  });

  it("puts the section at the top, or right after a leading title line", () => {
    expect(replaceSection("- a note\n", section)).toBe(`${section}\n- a note\n`);
    expect(replaceSection("# Memory index\n\n- a note\n", section)).toBe(`# Memory index\n\n${section}\n- a note\n`);
  });

  it("keeps the section where the user moved it", () => {
    const moved = `- first\n- second\n\n${section}- third\n`;
    expect(replaceSection(moved, newer)).toBe(`- first\n- second\n\n${newer}- third\n`);
  });

  it("returns the same text when the section is already current, so nothing is rewritten", () => {
    const inserted = replaceSection(userFiles[2] as string, section);
    expect(replaceSection(inserted, section)).toBe(inserted);
  });

  it("leaves a file without a section alone when asked to remove it", () => {
    expect(replaceSection("- a note\n", null)).toBe("- a note\n");
  });

  it("refuses a file whose markers do not pair up", () => {
    expect(() => replaceSection(`${SECTION_BEGIN}\n- a note\n`, newer)).toThrow(BrokenSectionError);
    expect(() => replaceSection(`- a note\n${SECTION_END}\n`, newer)).toThrow(BrokenSectionError);
    expect(() => replaceSection(`${section}${section}`, newer)).toThrow(/more than one/);
  });
});
