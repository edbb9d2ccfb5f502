/**
 * The URL of a file shipped in memd's package (`relative` to its root), from the URL of a module
 * under daemon/src/: the TypeScript source under vitest, or its compiled twin under dist/.
 */
export function packageFileUrl(relative: string, moduleUrl: string): URL {
  const at = moduleUrl.lastIndexOf("/daemon/src/");
  if (at === -1) throw new Error(`${moduleUrl} is not under daemon/src/, so memd's package root cannot be found`);
  const root = moduleUrl.slice(0, at);
  return new URL(`${root.endsWith("/dist") ? root.slice(0, -"/dist".length) : root}/${relative}`);
}
