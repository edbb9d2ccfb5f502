import { promoteMemory, rejectMemory } from "../memory/corrections.js";
import type { MemoryRecord } from "../memory/memory.js";
import { validateId } from "../memory/validate.js";
import { redact } from "../redact/redact-secrets.js";
import type { MemoryRecords } from "../store/store.js";

/** A person confirmed a staged memory: it becomes active. */
export function promoteStaged(store: Pick<MemoryRecords, "modify">, rawId: string, at: number): MemoryRecord {
  return store.modify(validateId(rawId), (current) => promoteMemory(current, at), () => ({ at, action: "promoted", sessionId: "", detail: "by a person" }));
}

/** A person said a staged memory is wrong: it is archived with their reason, secrets redacted. */
export function rejectStaged(store: Pick<MemoryRecords, "modify">, rawId: string, rawReason: string, at: number): MemoryRecord {
  const id = validateId(rawId);
  const reason = redact(rawReason.trim());
  return store.modify(id, (current) => rejectMemory(current, reason, at), () => ({ at, action: "rejected", sessionId: "", detail: reason }));
}
