// Bundles the compiled memd-mcp (dist/clients/mcp/src/main.js) and its dependencies into one
// file beside it. An MCP client starts the server for every session and waits for `initialize`:
// resolving and loading ~600 separate modules (the MCP SDK, zod, protobuf, connect) costs more
// than everything else together, and one bundled file halves the start-up.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dir = path.join(root, "dist/clients/mcp/src");

await build({
  entryPoints: [path.join(dir, "main.js")],
  // Beside main.js, so that the relative paths it resolves at run time (the daemon's entry
  // point, package.json) stay the same.
  outfile: path.join(dir, "memd-mcp.mjs"),
  bundle: true,
  minify: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  // Bundled CommonJS dependencies still call require(); give the ES module one.
  banner: { js: "import { createRequire as memdCreateRequire } from 'node:module'; const require = memdCreateRequire(import.meta.url);" },
});
