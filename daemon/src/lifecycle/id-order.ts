/** Orders ids by code unit, independent of locale; for ULIDs that is creation order. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
