// Bundles the compiled memd-mcp (dist/clients/mcp/src/main.js) and its dependencies into one
// CommonJS file beside it (memd-mcp.cjs), bundles its entry point (launch.js, which runs that
// file from V8's code cache) as memd-mcp.mjs, and writes the cache by running one session.
// An MCP client starts the server for every session and waits for `initialize`: resolving and
// loading ~600 separate modules (the MCP SDK, zod, protobuf, connect) costs more than
// everything else together, and compiling the one bundled file is most of what remains.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dir = path.join(root, "dist/clients/mcp/src");
const common = { bundle: true, minify: true, platform: "node", target: "node20", logLevel: "warning" };

await build({
  ...common,
  entryPoints: [path.join(dir, "main.js")],
  // Beside main.js, so that the relative paths it resolves at run time (the daemon's entry
  // point, package.json) stay the same.
  outfile: path.join(dir, "memd-mcp.cjs"),
  format: "cjs",
  // launch.js runs the bundle without its shebang line; import.meta is ESM's, and the bundle is not.
  define: { "import.meta.url": "memdBundleUrl" },
  banner: { js: "const memdBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [noZodLocales(), noAjv()],
});
fs.writeFileSync(path.join(dir, "memd-mcp.cjs"), fs.readFileSync(path.join(dir, "memd-mcp.cjs"), "utf8").replace(/^#!.*\n/, ""));
await build({ ...common, entryPoints: [path.join(dir, "launch.js")], outfile: path.join(dir, "memd-mcp.mjs"), format: "esm" });
fs.chmodSync(path.join(dir, "memd-mcp.mjs"), 0o755);
fs.rmSync(path.join(dir, "memd-mcp.cjs.cache"), { force: true });
await warmUp(path.join(dir, "memd-mcp.mjs"));

/**
 * zod's `z` namespace re-exports its 65 translations of error messages (`z.locales`), which
 * the bundle cannot drop while `z` is used as a whole; memd calls none of them, and English,
 * the default, is registered by zod's schemas module itself. Saves 260 KB of the bundle.
 */
function noZodLocales() {
  return {
    name: "no-zod-locales",
    setup(b) {
      b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => (args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: "zod-locales", namespace: "memd-empty" } : undefined));
      b.onLoad({ filter: /.*/, namespace: "memd-empty" }, () => ({ contents: "export {};", loader: "js" }));
    },
  };
}

/**
 * The MCP SDK's server imports Ajv to validate what a user answers to an elicitation, and builds
 * it only when it is given no validator of its own; server.ts gives one (memd asks the user
 * nothing), so the bundle leaves Ajv out (130 KB, 2 ms of every start-up) and fails loudly
 * should the SDK ever construct it.
 */
function noAjv() {
  return {
    name: "no-ajv",
    setup(b) {
      b.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (args) => (args.importer.includes(`${path.sep}@modelcontextprotocol${path.sep}`) ? { path: "ajv-provider", namespace: "memd-no-ajv" } : undefined));
      b.onLoad({ filter: /.*/, namespace: "memd-no-ajv" }, () => ({
        contents: `export class AjvJsonSchemaValidator { constructor() { throw new Error("memd-mcp's bundle leaves Ajv out: give McpServer a jsonSchemaValidator"); } }`,
        loader: "js",
      }));
    },
  };
}

/** One session as an agent runs it (initialize, tools/list), kept open until launch.js has written the code cache. */
async function warmUp(entry) {
  const home = fs.mkdtempSync(path.join(root, "dist/.mcp-warmup-"));
  const child = spawn(process.execPath, [entry, "--home", home], { stdio: ["pipe", "pipe", "inherit"] });
  const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "memd-build", version: "0" } } });
  send({ method: "notifications/initialized" });
  send({ id: 2, method: "tools/list" });
  child.stdout.resume();
  const cache = path.join(dir, "memd-mcp.cjs.cache");
  for (let waited = 0; !fs.existsSync(cache) && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  fs.rmSync(home, { recursive: true, force: true });
  if (!fs.existsSync(cache)) throw new Error("memd-mcp wrote no code cache during the build's warm-up session");
}
