import { describe, expect, it } from "vitest";
import { parseMemoryNote } from "../agent-hooks/claude-code/memory-note.js";
import { parseNote, renderStub, stubId } from "./note-stub.js";

const ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
const note = [
  "---",
  "name: pnpm only in acme-api",
  "description: acme-api uses pnpm exclusively",
  "type: feedback",
  "modified: 2026-08-20T10:00:00Z",
  "---",
  "Always use pnpm in acme-api; never npm or yarn.",
  "",
  "**Why:** the lockfile is pnpm-lock.yaml.",
  "",
].join("\n");

const samples = [
  note,
  "---\nname: x\ndescription: only a description\ntype: reference\n---\n",
  "\uFEFF---\r\nname: crlf\r\ntype: project\r\n---\r\nWe decided to go with Postgres.\r\n",
  "---\nname: quoted\ntype: 'user'\n---\nPrefers tabs.",
  "---\nname: unknown type\ntype: scratch\n---\nbody",
  "no frontmatter at all",
  "---\nname: empty\ntype: feedback\n---\n   \n",
];

describe("parseNote", () => {
  it.each(samples)("reads the same content memd-hook saves (%j)", (text) => {
    expect(parseNote(text)?.content ?? null).toBe(parseMemoryNote(text)?.content ?? null);
  });

  it("splits off the frontmatter exactly, closing line included", () => {
    const parts = parseNote(note);
    expect(parts?.frontmatter).toBe(note.slice(0, note.indexOf("Always")));
    expect(`${parts?.frontmatter}${parts?.body}`).toBe(note);
  });
});

describe("stubs", () => {
  it("keep the note's frontmatter byte for byte and name the memory", () => {
    const stub = renderStub(parseNote(note)?.frontmatter as string, ID);
    expect(stub.startsWith(note.slice(0, note.indexOf("Always")))).toBe(true);
    expect(stub).toContain(`Moved to memd as ${ID}.`);
    expect(stub).toContain(`memctl get ${ID}`);
    expect(stubId(stub)).toBe(ID);
  });

  it("are still notes Claude Code can index, which memd-hook does not save again", () => {
    const stub = renderStub(parseNote(note)?.frontmatter as string, ID);
    expect(parseNote(stub)?.frontmatter).toMatch(/^name: pnpm only in acme-api$[\s\S]*^description: .+$[\s\S]*^type: feedback$/m);
    expect(parseMemoryNote(stub)).toBeNull();
  });

  it("are recognised even after something was added below them", () => {
    const stub = `${renderStub("---\nname: a\ntype: user\n---", ID)}\nA line Claude added later.\n`;
    expect(stubId(stub)).toBe(ID);
  });

  it("are not confused with a note that merely mentions memd", () => {
    expect(stubId(note)).toBeNull();
    expect(stubId("---\ntype: user\n---\nWe talked about <!-- memd:stub not-an-id -->.")).toBeNull();
  });
});
