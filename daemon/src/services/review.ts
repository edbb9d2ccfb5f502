import { isDueForReview } from "../lifecycle/review.js";
import type { MemoryRecord } from "../memory/memory.js";
import type { MemoryRecords } from "../store/store.js";

/** Active memories whose review date has passed (rules get one by default): a person should confirm, edit or archive them. */
export function rulesDueForReview(store: MemoryRecords, project: string | undefined, now: number): MemoryRecord[] {
  const projects = project === undefined ? undefined : [project];
  // Rules are due by default after an interval; other kinds only with an explicit review date.
  const rules = store.list({ projects, kinds: ["rule"], statuses: ["active"] }, { limit: 10_000 });
  const dated = store.list({ projects, kinds: [], statuses: ["active"], withReviewDate: true }, { limit: 10_000 });
  const unique = new Map([...rules, ...dated].map((memory) => [memory.id, memory]));
  return [...unique.values()].filter((memory) => isDueForReview(memory, now));
}
