// The pure parts of the Claude Code hook routes: memory notes and failure traces.
import { describe, expect, it } from "vitest";
import { failureTrace } from "../../capture/failure-trace.js";
import { isMemoryNotePath, parseMemoryNote } from "./memory-note.js";

describe("memory notes", () => {
  it("recognises Claude Code's memory folders and skips the MEMORY.md index", () => {
    expect(isMemoryNotePath("/home/m/.claude/projects/-home-m-api/memory/feedback_x.md")).toBe(true);
    expect(isMemoryNotePath("/home/m/code/api/.claude/memory/decision.md")).toBe(true);
    expect(isMemoryNotePath("/home/m/.claude/projects/-home-m-api/memory/MEMORY.md")).toBe(false);
    expect(isMemoryNotePath("/home/m/code/api/docs/memory/notes.md")).toBe(false);
  });

  it("maps the note type to a kind and a provenance", () => {
    const note = (type: string, body: string) => parseMemoryNote(`---\nname: n\ndescription: d\ntype: ${type}\n---\n${body}\n`);
    expect(note("feedback", "Use pnpm.")).toMatchObject({ kind: "MEMORY_KIND_PREFERENCE", provenance: "PROVENANCE_HUMAN", global: false, content: "Use pnpm." });
    expect(note("user", "Maya is a backend engineer.")).toMatchObject({ kind: "MEMORY_KIND_PREFERENCE", global: true });
    expect(note("project", "We chose jose instead of jsonwebtoken.")?.kind).toBe("MEMORY_KIND_DECISION");
    expect(note("project", "Postgres listens on 5433.")?.kind).toBe("MEMORY_KIND_FACT");
    expect(note("reference", "Runbook: https://wiki/runbook")).toMatchObject({ kind: "MEMORY_KIND_FACT", provenance: "PROVENANCE_SAVE" });
    expect(note("other", "x")).toBeNull();
    expect(parseMemoryNote("no frontmatter")).toBeNull();
  });

  it("reads the type Claude Code 2.1.332 nests under metadata when it rewrites a note it edited", () => {
    const edited = "---\nname: deploys\ndescription: how we deploy\nmetadata:\n  node_type: memory\n  type: project\n  originSessionId: 5e0c\n  modified: 2026-12-03T09:49:19.017Z\n---\n\nWe decided to deploy on Tuesdays.\n";
    expect(parseMemoryNote(edited)).toMatchObject({ kind: "MEMORY_KIND_DECISION", content: "We decided to deploy on Tuesdays.", name: "deploys" });
  });

  it("ignores a stub that memctl compress left in place of a note memd holds", () => {
    const id = "01JD8X4M2Q9W7E5R3T1Y6V8K0P";
    const stub = `---\nname: n\ndescription: d\ntype: feedback\n---\nMoved to memd as ${id}. Read it with \`memctl get ${id}\` or the memory_get tool.\n<!-- memd:stub ${id} -->\n`;
    expect(parseMemoryNote(stub)).toBeNull();
  });
});

describe("failureTrace", () => {
  it("keeps the command, the exit line and the thrown error, and skips interrupted runs", () => {
    const trace = failureTrace("make build", "Exit code 2\nbuilding...\n----\nTypeError: x is not a function\n", false);
    expect(trace).toBe("Command failed: make build\nExit code 2\nTypeError: x is not a function");
    expect(failureTrace("make build", "Exit code 130", true)).toBeNull();
  });
});
