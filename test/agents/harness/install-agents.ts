import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { requirement } from "../../helpers/requirement.js";
import { AGENTS_DIR } from "./agents.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Why the agents cannot run here (not installed, no network namespace), or "" when they can. */
    agentSuiteUnavailable: string;
  }
}

const LOCKFILE = path.join(AGENTS_DIR, "package-lock.json");
/** Written after a successful install: the lockfile's hash, so that a later run installs nothing. */
const STAMP = path.join(AGENTS_DIR, "node_modules", ".memd-installed-lock");

function lockHash(): string {
  return createHash("sha256").update(fs.readFileSync(LOCKFILE)).digest("hex");
}

/**
 * Installs the agents exactly as test/agents/package-lock.json pins them (npm ci, about 1.5 GB;
 * npm's cache makes a second machine's install fast), unless that lockfile is already installed.
 * Returns why it could not, or "".
 */
function installAgents(): string {
  const hash = lockHash();
  if (fs.existsSync(STAMP) && fs.readFileSync(STAMP, "utf8") === hash) return "";
  const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: AGENTS_DIR, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (npm.status !== 0) return `npm ci in ${AGENTS_DIR} failed (${npm.status ?? npm.signal}): ${npm.stderr.trim().split("\n").slice(-5).join(" ")}`;
  fs.writeFileSync(STAMP, hash);
  return "";
}

/**
 * Whether an agent can be given a network of its own with only loopback (unshare -n as root,
 * or through a user namespace): the suite runs every agent so, and nothing can leave the machine.
 */
function isolationMissing(): string {
  const root = process.getuid?.() === 0;
  try {
    execFileSync("unshare", [...(root ? [] : ["-r"]), "-n", "--", "/bin/sh", "-c", "ip link set lo up"], { stdio: "pipe" });
    return "";
  } catch (error) {
    return `cannot give an agent a loopback-only network (unshare -n and ip link from util-linux and iproute2): ${(error as Error).message.split("\n")[0]}`;
  }
}

/**
 * The real-agent suite's global setup: the agents installed and isolation available, or the
 * reason why not, which the suite's tests skip with. In CI a reason is a failure, not a skip.
 */
export default function setup(project: TestProject): void {
  const why = requirement(
    isolationMissing() || installAgents(),
    "the suite's global setup installs the agents with npm ci from the registry, and .ci/run runs as root, where unshare -n isolates them",
  );
  project.provide("agentSuiteUnavailable", why);
}
