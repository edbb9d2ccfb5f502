/**
 * The URL of a worker thread's module `name` beside the module at `moduleUrl`. Under vitest
 * that module is the TypeScript source, which Node 20's worker threads cannot load, so the
 * compiled twin in dist/ is used instead (the suite's global setup builds dist/ before any test).
 */
export function workerModuleUrl(name: string, moduleUrl: string): URL {
  const beside = new URL(`./${name}.js`, moduleUrl);
  if (!moduleUrl.endsWith(".ts")) return beside;
  const at = beside.href.lastIndexOf("/daemon/src/");
  if (at === -1) throw new Error(`${moduleUrl} is not under daemon/src/, so its compiled twin cannot be found`);
  return new URL(`${beside.href.slice(0, at)}/dist${beside.href.slice(at)}`);
}
