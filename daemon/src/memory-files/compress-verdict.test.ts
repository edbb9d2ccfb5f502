import { describe, expect, it } from "vitest";
import { normalizedContentHash } from "../lifecycle/content-hash.js";
import type { MemoryRecord } from "../memory/memory.js";
import { buildMemory } from "../memory/new-memory.js";
import { compressVerdict } from "./compress-verdict.js";
import { renderStub } from "./note-stub.js";

const now = Date.UTC(2026, 6, 1);
const frontmatter = "---\nname: pnpm only\ndescription: use pnpm\ntype: feedback\n---\n";
const note = `${frontmatter}Always use pnpm in acme-api; never npm or yarn.\n`;

function memory(id: string, content: string, overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return { ...buildMemory({ content, project: "acme-api", kind: "preference" }, id, now, { maxContentBytes: 4096 }), ...overrides };
}

/** A store lookup by normalised content hash over these memories. */
function holders(...memories: MemoryRecord[]) {
  return (content: string) => memories.filter((m) => normalizedContentHash(m.content) === normalizedContentHash(content));
}

describe("compressVerdict", () => {
  it("compresses a note an active memory of the project holds, keeping its frontmatter", () => {
    const verdict = compressVerdict(note, "acme-api", holders(memory("01JAAAAAAAAAAAAAAAAAAAAAAA", "always use pnpm in acme-api — never npm or yarn")));
    expect(verdict).toEqual({ outcome: "compressed", memoryId: "01JAAAAAAAAAAAAAAAAAAAAAAA", stub: renderStub(frontmatter, "01JAAAAAAAAAAAAAAAAAAAAAAA") });
  });

  it("counts a global memory as holding the note (user notes are saved to global)", () => {
    const verdict = compressVerdict(note, "acme-api", holders(memory("01JAAAAAAAAAAAAAAAAAAAAAAA", "Always use pnpm in acme-api; never npm or yarn.", { project: "global" })));
    expect(verdict.outcome).toBe("compressed");
  });

  it("prefers the active memory when an archived copy holds the same content", () => {
    const verdict = compressVerdict(note, "acme-api", holders(
      memory("01JAAAAAAAAAAAAAAAAAAAAAAA", "Always use pnpm in acme-api; never npm or yarn.", { status: "archived" }),
      memory("01JBBBBBBBBBBBBBBBBBBBBBBB", "Always use pnpm in acme-api; never npm or yarn."),
    ));
    expect(verdict).toMatchObject({ outcome: "compressed", memoryId: "01JBBBBBBBBBBBBBBBBBBBBBBB" });
  });

  it.each(["staged", "superseded", "archived"] as const)("leaves a note whose only memory is %s, and says so", (status) => {
    const verdict = compressVerdict(note, "acme-api", holders(memory("01JAAAAAAAAAAAAAAAAAAAAAAA", "Always use pnpm in acme-api; never npm or yarn.", { status, supersededBy: status === "superseded" ? "01JBBBBBBBBBBBBBBBBBBBBBBB" : "" })));
    expect(verdict.outcome).toBe("not-in-database");
    expect(verdict).toMatchObject({ reason: expect.stringContaining(`01JAAAAAAAAAAAAAAAAAAAAAAA, is ${status}`) });
  });

  it("leaves a note only another project holds", () => {
    const verdict = compressVerdict(note, "acme-api", holders(memory("01JAAAAAAAAAAAAAAAAAAAAAAA", "Always use pnpm in acme-api; never npm or yarn.", { project: "web" })));
    expect(verdict).toMatchObject({ outcome: "not-in-database", reason: expect.stringContaining('only project "web"') });
  });

  it("leaves a note no memory holds", () => {
    expect(compressVerdict(note, "acme-api", holders(memory("01JAAAAAAAAAAAAAAAAAAAAAAA", "Always use npm"))).outcome).toBe("not-in-database");
  });

  it("recognises a stub and names its memory", () => {
    expect(compressVerdict(renderStub(frontmatter, "01JAAAAAAAAAAAAAAAAAAAAAAA"), "acme-api", holders())).toEqual({ outcome: "already-stub", memoryId: "01JAAAAAAAAAAAAAAAAAAAAAAA" });
  });

  it("skips a file that is not a Claude Code memory note", () => {
    expect(compressVerdict("# Just some notes\n", "acme-api", holders()).outcome).toBe("skipped");
  });

  it("never compresses a note holding a secret, which memd keeps only redacted", () => {
    const secret = `${frontmatter}The CI deploy key is AKIAIOSFODNN7EXAMPLE.\n`;
    const verdict = compressVerdict(secret, "acme-api", holders(memory("01JAAAAAAAAAAAAAAAAAAAAAAA", "The CI deploy key is [REDACTED:aws-access-key-id].")));
    expect(verdict).toMatchObject({ outcome: "skipped", reason: expect.stringContaining("secret") });
  });
});
