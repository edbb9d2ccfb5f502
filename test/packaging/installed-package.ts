import fs from "node:fs";
import path from "node:path";
import { type CliResult, runCommand } from "../helpers/daemon.js";

/** What `npm pack --json` says about the tarball it wrote. */
export interface PackedTarball {
  file: string;
  /** Paths inside the package, e.g. "dist/daemon/src/main.js". */
  files: string[];
}

/**
 * The environment for npm itself: the caller's, without the npm_* variables that `npm test`
 * passes down to its scripts (an inherited npm_config_global or npm_config_ignore_scripts would
 * change what is installed), except those that say where packages and the cache come from.
 */
export function npmEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept = new Set(["npm_config_cache", "npm_config_registry", "npm_config_userconfig", "npm_config_globalconfig"]);
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.toLowerCase().startsWith("npm_") || kept.has(name.toLowerCase())));
}

/**
 * `npm pack` of the repository into `destination`. Scripts are skipped: vitest's globalSetup has
 * just compiled dist/, and a second `prepare` build would rewrite it under the other test files.
 */
export async function packRepository(repoRoot: string, destination: string): Promise<PackedTarball> {
  const run = await runCommand("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", destination], {
    env: npmEnvironment(),
    cwd: repoRoot,
  });
  if (run.code !== 0) throw new Error(`npm pack exited with ${run.code}: ${run.stderr}`);
  const [packed] = JSON.parse(run.stdout) as { filename: string; files: { path: string }[] }[];
  if (!packed) throw new Error(`npm pack printed no tarball: ${run.stdout}`);
  return { file: path.join(destination, packed.filename), files: packed.files.map((f) => f.path) };
}

/**
 * The install command docs/install.md gives, into a private prefix instead of the user's global
 * one. The normal npm cache is used, so only better-sqlite3's native build takes long.
 */
export async function installGlobally(tarball: string, prefix: string): Promise<CliResult> {
  return runCommand(
    "npm",
    ["install", "--global", "--allow-scripts=better-sqlite3", "--onnxruntime-node-install=skip", "--prefix", prefix, "--no-audit", "--no-fund", tarball],
    { env: npmEnvironment() },
  );
}

/**
 * A directory holding only a `node` link to this Node: with it and the prefix's bin/ as the
 * whole PATH, the installed commands can use nothing from the repository or the machine's tools.
 */
export function nodeOnlyBinDir(parent: string): string {
  const dir = path.join(parent, "node-only");
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(process.execPath, path.join(dir, "node"));
  return dir;
}
