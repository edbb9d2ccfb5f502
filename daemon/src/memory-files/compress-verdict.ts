import { GLOBAL_PROJECT, type MemoryRecord } from "../memory/memory.js";
import { redactSecrets } from "../redact/redact-secrets.js";
import { parseNote, renderStub, stubId } from "./note-stub.js";

/** What compress does with one note. */
export type NoteVerdict =
  | { outcome: "compressed"; memoryId: string; stub: string }
  | { outcome: "already-stub"; memoryId: string }
  | { outcome: "not-in-database"; reason: string }
  | { outcome: "skipped"; reason: string };

/**
 * Decides whether a note is safely in the database: an active memory of `project` or global
 * holds its content (the same normalised content hash, which is how memd-hook's save and
 * dedup match it). `holdersOf` returns every memory with that content, whatever its project
 * and status, so a miss can say why. A note holding a secret is never compressed: memd stored
 * it redacted, and the stub would lose what the note said.
 */
export function compressVerdict(text: string, project: string, holdersOf: (content: string) => readonly MemoryRecord[]): NoteVerdict {
  const stubbed = stubId(text);
  if (stubbed) return { outcome: "already-stub", memoryId: stubbed };
  const note = parseNote(text);
  if (!note) {
    return { outcome: "skipped", reason: "not a Claude Code memory note (no frontmatter with type user, feedback, project or reference, or no content)" };
  }
  const secrets = redactSecrets(note.content).findings;
  if (secrets.length > 0) {
    const types = [...new Set(secrets.map((s) => s.type))].join(", ");
    return { outcome: "skipped", reason: `the note holds a secret (${types}) that memd stores only redacted; a stub would lose it` };
  }
  const holders = holdersOf(note.content);
  const local = holders.filter((m) => m.project === project || m.project === GLOBAL_PROJECT);
  const active = local.find((m) => m.status === "active");
  if (active) return { outcome: "compressed", memoryId: active.id, stub: renderStub(note.frontmatter, active.id) };
  const other = local[0];
  if (other) {
    const successor = other.supersededBy ? `; it was replaced by ${other.supersededBy}` : "";
    return { outcome: "not-in-database", reason: `the memory holding it, ${other.id}, is ${other.status}${successor}` };
  }
  const elsewhere = holders[0];
  if (elsewhere) {
    return { outcome: "not-in-database", reason: `only project "${elsewhere.project}" holds it (${elsewhere.id}), not "${project}" or global` };
  }
  return { outcome: "not-in-database", reason: "no memory holds its content: save it first (memctl add, or let memd-hook save it when Claude writes the note)" };
}
