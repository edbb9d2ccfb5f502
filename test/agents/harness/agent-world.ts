import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CLI_BIN, type CliResult, runCommand, spawnDaemon, type TestDaemon } from "../../helpers/daemon.js";
import { type ModelRequest, type ModelServer, startModelServer } from "../model-server/model-server.js";
import type { Script } from "../model-server/script.js";
import { AGENT_BIN_DIR, type AgentName, AGENTS, type AgentPlace } from "./agents.js";
import { openLoopbackBridge } from "./loopback-bridge.js";

const NETNS_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), "netns-entry.mjs");
/** An agent run that takes longer than this is stuck (a prompt it waits on, a hook that hangs). */
const RUN_LIMIT_MS = 120_000;

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The model requests this run made (the server's record from its start to its end). */
  requests: ModelRequest[];
}

/**
 * A user's machine for one test: a temporary HOME with the agent configured against the scripted
 * model, a project directory, memd's daemon on HOME/.memd (the role the login service plays),
 * and the real memctl. Nothing is written outside the temporary directory.
 */
export interface AgentWorld extends AgentPlace {
  agent: AgentName;
  memdHome: string;
  model: ModelServer;
  /** The environment the user's shell has: memctl and the agent run with it. */
  env: NodeJS.ProcessEnv;
  memctl(...args: string[]): Promise<CliResult>;
  /** memctl's JSON output of a command (with --json). */
  memctlJson<T>(...args: string[]): Promise<T>;
  /** Starts memd keyword-only, or with an embedder ("local": the built-in model) where a test is about vectors. */
  startDaemon(embedder?: string): Promise<TestDaemon>;
  stopDaemon(): Promise<void>;
  daemon(): TestDaemon;
  /** Runs the agent headless on `prompt`, the scripted model playing `script`, in a network namespace that reaches only loopback ports given. */
  run(prompt: string, script: Script, options?: { ports?: number[]; extraArgs?: string[] }): Promise<AgentRun>;
  dispose(): Promise<void>;
}

/**
 * The environment of a fresh login: PATH (node first, so that hook commands find this Node),
 * HOME, locale and temp dir, and nothing else of the test runner's (no MEMD_*, no agent
 * settings, no proxies).
 */
function userEnvironment(home: string): NodeJS.ProcessEnv {
  const pathDirs = [path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"];
  return { PATH: [...new Set(pathDirs)].join(":"), HOME: home, LANG: "C.UTF-8", TERM: "dumb", TMPDIR: path.join(home, "tmp"), USER: os.userInfo().username, SHELL: "/bin/sh" };
}

export async function createAgentWorld(agent: AgentName): Promise<AgentWorld> {
  // Short: Unix socket paths (memd.sock, the bridge's) must fit in about 100 bytes.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `ma-${agent}-`));
  const project = path.join(home, "project");
  const memdHome = path.join(home, ".memd");
  fs.mkdirSync(project, { recursive: true });
  fs.mkdirSync(path.join(home, "tmp"));
  const model = await startModelServer();
  const place: AgentPlace = { home, project, modelPort: model.port };
  const profile = AGENTS[agent];
  profile.prepare(place);
  const env = { ...userEnvironment(home), ...profile.env(place) };
  let daemon: TestDaemon | null = null;
  let runs = 0;
  const memctl = (...args: string[]) => runCommand(process.execPath, [CLI_BIN, ...args], { env, cwd: project });
  return {
    agent,
    ...place,
    memdHome,
    model,
    env,
    memctl,
    async memctlJson<T>(...args: string[]): Promise<T> {
      const result = await memctl(...args, "--json");
      if (result.code !== 0) throw new Error(`memctl ${args.join(" ")} failed (${result.code}): ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    },
    async startDaemon(embedder = "none") {
      daemon = await spawnDaemon({ home: memdHome, env: { HOME: home, MEMD_EMBEDDER: embedder } });
      return daemon;
    },
    async stopDaemon() {
      await daemon?.stop();
      daemon = null;
    },
    daemon() {
      if (daemon === null) throw new Error("memd is not running in this world");
      return daemon;
    },
    async run(prompt, script, options = {}) {
      model.play(script);
      const first = model.requests.length;
      runs += 1;
      const bridge = await openLoopbackBridge(path.join(home, `b${runs}`), [model.port, ...listenPorts(memdHome), ...(options.ports ?? [])]);
      try {
        const command = path.join(AGENT_BIN_DIR, profile.bin);
        const inner = [NETNS_ENTRY, bridge.dir, bridge.ports.join(","), "--", command, ...profile.args(prompt, place), ...(options.extraArgs ?? [])];
        const result = await runIsolated(inner, env, project);
        return { ...result, requests: model.requests.slice(first) };
      } finally {
        await bridge.close();
      }
    },
    async dispose() {
      await daemon?.stop();
      await model.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The loopback port memd listens on for http hooks (MEMD_HOME/listen, which setup writes), if any. */
function listenPorts(memdHome: string): number[] {
  const file = path.join(memdHome, "listen");
  const recorded = fs.existsSync(file) ? /^127\.0\.0\.1:(\d+)$/.exec(fs.readFileSync(file, "utf8").trim()) : null;
  return recorded ? [Number(recorded[1])] : [];
}

/**
 * Runs `node <args>` in a new network namespace with only loopback up (unshare -n, as root; an
 * unprivileged user gets one through a user namespace, -r), stdin closed, killed past the limit.
 */
function runIsolated(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const root = process.getuid?.() === 0;
  const unshare = ["unshare", ...(root ? [] : ["-r"]), "-n", "--", "/bin/sh", "-c", 'ip link set lo up && exec "$@"', "sh", process.execPath, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(unshare[0] as string, unshare.slice(1), { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_LIMIT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
