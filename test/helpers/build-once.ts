import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Set in the runner's process once built: both test projects name this setup, and one build serves them. */
const state = globalThis as { memdTestBuilt?: boolean };

/** Compiles the daemon and clients to dist/ so that tests run the binaries users run. */
export default function setup(): void {
  if (state.memdTestBuilt === true) return;
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
  execFileSync(process.execPath, [path.join(root, "clients/mcp/bundle.mjs")], { cwd: root, stdio: "inherit" });
  execFileSync(process.execPath, [path.join(root, "clients/web/build.mjs")], { cwd: root, stdio: "inherit" });
  state.memdTestBuilt = true;
}
