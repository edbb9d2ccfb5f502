// Mirrors the per-list limit in memory/validate.ts, so a merged list still passes validation.
const MAX_LIST_ITEMS = 64;

/**
 * Union of lists in first-seen order. Entries past the limit are dropped, the newest first,
 * because a merge must not fail over a list it made too long.
 */
export function unionLists(lists: readonly (readonly string[])[], maxItems: number = MAX_LIST_ITEMS): string[] {
  const seen = new Set<string>();
  for (const list of lists) {
    for (const item of list) {
      if (seen.size >= maxItems) return [...seen];
      seen.add(item);
    }
  }
  return [...seen];
}
