// Builds the web viewer into dist/clients/web, where the daemon serves it at /ui: the page's
// TypeScript bundled with esbuild into one module (app.js), beside its HTML and CSS. No CDN, no
// framework: the page is the Connect client generated from proto/ and a little DOM code.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, "../../dist/clients/web");
fs.mkdirSync(out, { recursive: true });
await build({
  entryPoints: [path.join(here, "src/main.ts")],
  bundle: true,
  minify: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  outfile: path.join(out, "app.js"),
  logLevel: "warning",
});
for (const name of ["index.html", "app.css"]) fs.copyFileSync(path.join(here, name), path.join(out, name));
