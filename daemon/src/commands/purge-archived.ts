import fs from "node:fs";
import path from "node:path";
import type { EmbeddingRuntime } from "../embed/embedding-runtime.js";
import { InvalidInputError } from "../errors.js";
import type { MemoryRecords } from "../store/store.js";

/** The words a person types to delete archived memories for good. */
const PURGE_CONFIRMATION = "delete archived memories";

/**
 * Deletes every archived memory for good, once the caller confirmed with the exact words, after
 * copying the database to `backupDir`; their vectors go too, since a new memory may reuse a
 * purged sequence number.
 */
export function purgeArchived(
  ports: { store: Pick<MemoryRecords, "purgeArchived">; embeddings: Pick<EmbeddingRuntime, "forget"> | null },
  backupDir: string,
  confirm: string,
  at: number,
): { deleted: number; backupPath: string } {
  if (confirm !== PURGE_CONFIRMATION) {
    throw new InvalidInputError(`purge deletes archived memories for good: confirm with exactly "${PURGE_CONFIRMATION}"`);
  }
  fs.mkdirSync(backupDir, { recursive: true, mode: 0o700 });
  const stamp = new Date(at).toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
  const backupPath = path.join(backupDir, `memd-before-purge-${stamp}.db`);
  const deleted = ports.store.purgeArchived(backupPath);
  ports.embeddings?.forget(deleted);
  return { deleted: deleted.length, backupPath };
}
