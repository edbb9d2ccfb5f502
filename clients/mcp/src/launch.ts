#!/usr/bin/env node
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

/**
 * memd-mcp's entry point. An agent starts the MCP server for every session and waits for
 * `initialize`; compiling the half-megabyte bundle (the MCP SDK, zod, protobuf, connect) is a
 * third of that wait. So the bundle (memd-mcp.cjs beside this file) runs from V8's code cache
 * (memd-mcp.cjs.cache), which the build writes. Node 20 has no module compile cache of its own
 * (module.enableCompileCache is Node 22), hence vm.Script. A cache V8 rejects (another Node
 * version) or that is missing costs only the compile, and a fresh one replaces it once the
 * session has answered its first requests; a directory memd-mcp may not write keeps none.
 */

/** Long enough for initialize and tools/list to have compiled what they run, so the cache holds it. */
const CACHE_AFTER_MS = 1000;

const bundle = fileURLToPath(new URL("./memd-mcp.cjs", import.meta.url));
const cacheFile = `${bundle}.cache`;
const cachedData = readCache();
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(bundle, "utf8")}\n})`, {
  filename: bundle,
  cachedData,
});
const commonJsModule = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(commonJsModule.exports, createRequire(bundle), commonJsModule, bundle, path.dirname(bundle));
if (cachedData === undefined || script.cachedDataRejected === true) setTimeout(writeCache, CACHE_AFTER_MS).unref();

function readCache(): Buffer | undefined {
  try {
    return fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

/** Written whole under a temporary name, so a session starting meanwhile reads the old cache or the new one. */
function writeCache(): void {
  const temporary = `${cacheFile}.${process.pid}`;
  try {
    fs.writeFileSync(temporary, script.createCachedData());
    fs.renameSync(temporary, cacheFile);
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}
