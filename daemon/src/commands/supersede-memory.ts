import { followClaims } from "../memory/claim-chain.js";
import { type Correction, supersedeMemory } from "../memory/corrections.js";
import type { MemoryRecord } from "../memory/memory.js";
import { type MemoryLimits, validateId } from "../memory/validate.js";
import { redact } from "../redact/redact-secrets.js";
import type { MemoryRecords } from "../store/store.js";

/** Corrects a claim: the correction is a new memory, the old one is superseded by it, in one transaction. */
export function supersedeClaim(
  store: Pick<MemoryRecords, "get" | "supersede">,
  ports: { newId: () => string; limits: MemoryLimits },
  rawId: string,
  correction: Correction,
  at: number,
): { next: MemoryRecord; old: MemoryRecord } {
  const id = validateId(rawId);
  return store.supersede(
    id,
    (old) => supersedeMemory(old, correction, ports.newId(), at, ports.limits, currentClaim(store, old)),
    { at, action: "superseded", sessionId: correction.sessionId, detail: redact(correction.reason.trim()) },
  );
}

/** The end of the chain of corrections a claim belongs to: the claim to correct instead of an outdated one. */
function currentClaim(store: Pick<MemoryRecords, "get">, memory: MemoryRecord): string {
  return (followClaims(store, memory, "supersededBy").at(-1) ?? memory).id;
}
