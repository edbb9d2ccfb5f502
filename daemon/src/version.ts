import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** memd's version, from the package.json above this module (in the source tree and in dist/). */
export function readVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "memd" && pkg.version) return pkg.version;
    } catch {
      // Not here; look one level up.
    }
    if (path.dirname(dir) === dir) return "0.0.0-unknown";
  }
}
