import type { MemoryPatch, MemoryRecord, MemoryStatus } from "../memory/memory.js";

/** The fields a person may change by editing a memory's file, as Update may (plus the status below). */
const EDITABLE = [
  "content", "kind", "project", "problem", "solution", "concepts", "files", "tags", "confidence", "tier", "pinned",
  "importance", "valence", "intensity", "expiresAt", "reviewAt",
] as const satisfies readonly (keyof MemoryPatch)[];

/**
 * What a person's edit of a memory's file asks of memd:
 * - nothing: every field a person may change is as stored (they changed something memd keeps
 *   to itself, such as the history, or only their own Obsidian properties);
 * - an update: the changed fields as a patch, and a status change if the status changed;
 * - refused: a status change memd only makes through its own commands.
 */
export type FileEdit =
  | { kind: "nothing" }
  | { kind: "update"; patch: MemoryPatch; status: { to: MemoryStatus; reason: string } | null; changed: string[] }
  | { kind: "refused"; reason: string };

/**
 * Compares what the file holds with the stored memory. Fields the file does not hold are left
 * as they are. Status may go to archived (from anything), from archived back to active, and from
 * staged to active (promoted); superseded only comes with a correction (memctl supersede), and
 * staged only from capture.
 */
export function fileEdit(current: MemoryRecord, file: Partial<MemoryRecord>): FileEdit {
  const patch: MemoryPatch = {};
  const changed: string[] = [];
  for (const key of EDITABLE) {
    const value = file[key];
    if (value === undefined || same(value, current[key])) continue;
    (patch as Record<string, unknown>)[key] = value;
    changed.push(key);
  }
  let status: { to: MemoryStatus; reason: string } | null = null;
  if (file.status !== undefined && file.status !== current.status) {
    const to = file.status;
    const allowed = to === "archived" || (to === "active" && (current.status === "archived" || current.status === "staged"));
    if (!allowed) {
      return {
        kind: "refused",
        reason: `status cannot go from ${current.status} to ${to} by editing the file: ${to === "superseded" ? "correct a memory with memctl supersede" : "only archived, active (restored or promoted) can be set here"}`,
      };
    }
    status = { to, reason: to === "archived" ? (file.archiveReason ?? "") || "archived by editing its file in the vault" : "" };
    changed.push("status");
  }
  if (changed.length === 0) return { kind: "nothing" };
  return { kind: "update", patch, status, changed };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
