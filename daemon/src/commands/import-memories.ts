import type { ContradictionWatch } from "../contradictions/contradiction-watch.js";
import { type ImportedFields, validateImported } from "../memory/imported-memory.js";
import type { MemoryLimits } from "../memory/validate.js";
import type { ImportCounts, MemoryRecords } from "../store/store.js";

/**
 * Stores exported memories as they are, keyed by id. The whole batch is validated before any of
 * it is written, so a bad one changes nothing; memories new to this store are checked for
 * contradictions after the answer, a few at a time. `read` converts one item (its failures are
 * reported like the validation's, naming the item by its position and `label`).
 */
export function importMemories<T>(
  ports: { store: Pick<MemoryRecords, "seqOf" | "importMany">; contradictions: Pick<ContradictionWatch, "checkImported">; limits: MemoryLimits },
  items: readonly T[],
  read: (item: T) => ImportedFields,
  label: (item: T) => string,
): ImportCounts {
  const { store, contradictions, limits } = ports;
  const records = items.map((item, index) => {
    try {
      return validateImported(read(item), limits);
    } catch (error) {
      if (error instanceof Error) error.message = `memory #${index + 1} (${label(item)}): ${error.message}`;
      throw error;
    }
  });
  const known = new Set(records.filter((r) => store.seqOf(r.id) !== undefined).map((r) => r.id));
  const counts = store.importMany(records);
  contradictions.checkImported(records.filter((r) => !known.has(r.id)).map((r) => r.id));
  return counts;
}
