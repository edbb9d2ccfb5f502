import fs from "node:fs";
import path from "node:path";
import { clone, equals, fromJson, type JsonValue, toJsonString } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterEach, describe, expect, it } from "vitest";
import { createMemdClients, createSocketTransport, type MemdClients, type SocketTransportOptions } from "../../clients/transport/transport.js";
import { type Memory, MemoryKind, MemorySchema, MemoryStatus, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { makeHome, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { mulberry32, pick } from "../../bench/seeded-random.js";

// Each in-process client makes this many calls. CLI clients make far fewer (see CLI_ROUNDS):
// every memctl call is a new node process that costs about 300 ms of CPU on its own, so 1,000
// of them per client would take minutes on two cores.
const CONNECT_OPS = 1000;
const CLI_ROUNDS = 8;
// Five memctl calls per round, so each CLI client makes 40.
const CLI_CALLS_PER_ROUND = 5;
const PROJECTS = ["conc-alpha", "conc-beta", "conc-gamma"];
const OPS = ["save", "checkpoint", "get", "update", "search", "list", "archive"] as const;
type Op = (typeof OPS)[number];
// How often each operation is drawn; ops that need an active memory fall back to save.
const OP_WEIGHTS: Record<Op, number> = { save: 22, checkpoint: 8, get: 20, update: 15, search: 15, list: 10, archive: 10 };
const KINDS = [MemoryKind.FACT, MemoryKind.DECISION, MemoryKind.PROCEDURE, MemoryKind.IDEA, MemoryKind.TASK];

/** The in-process clients: every wire variant the socket serves, each on its own connection. */
const CONNECT_CLIENTS: { label: string; transport: Omit<SocketTransportOptions, "socketPath"> }[] = [
  { label: "h2-binary", transport: { httpVersion: "2" } },
  { label: "h2-json", transport: { httpVersion: "2", json: true } },
  { label: "h1-binary", transport: { httpVersion: "1.1" } },
  { label: "h1-json", transport: { httpVersion: "1.1", json: true } },
  { label: "grpc", transport: { protocol: "grpc" } },
  { label: "h2-binary-2", transport: { httpVersion: "2" } },
];
const CLI_CLIENTS = ["cli-a", "cli-b"];

/** What all clients did, written only after the daemon confirmed each step. */
interface Ledger {
  /** Memories created by save or checkpoint. */
  created: number;
  /** Memories moved from active to archived. */
  archived: number;
  /** Successful calls per client label and operation, e.g. "h2-json save". */
  calls: Map<string, number>;
  /** Everything that went wrong: failed calls and answers that were not what they should be. */
  failures: string[];
  /** Every memory id created so far, for reads across clients. */
  ids: string[];
  /** The latest version of each memory, as its owner last received it. */
  latest: Map<string, Memory>;
  /** The project the daemon derived for each working directory, per memory saved with it. */
  projectsByCwd: Map<string, Set<string>>;
}

const daemons: TestDaemon[] = [];
const homes: string[] = [];

afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.kill();
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});


function drawOp(random: () => number): Op {
  const total = OPS.reduce((sum, op) => sum + OP_WEIGHTS[op], 0);
  let r = random() * total;
  for (const op of OPS) {
    r -= OP_WEIGHTS[op];
    if (r < 0) return op;
  }
  return "save";
}

function describeError(error: unknown): string {
  if (error instanceof ConnectError) return `${Code[error.code]}: ${error.rawMessage}`;
  return error instanceof Error ? error.message : String(error);
}

/** Throws when an answer is wrong, so the step is recorded as a failure with the reason. */
function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

function memoryText(memory: Memory): string {
  return toJsonString(MemorySchema, memory);
}

function count(ledger: Ledger, label: string, op: Op): void {
  const key = `${label} ${op}`;
  ledger.calls.set(key, (ledger.calls.get(key) ?? 0) + 1);
}

/** One in-process client: CONNECT_OPS mixed calls, each answer checked against what it owns. */
async function runConnectClient(label: string, seed: number, clients: MemdClients, cwds: string[], ledger: Ledger): Promise<void> {
  const random = mulberry32(seed);
  // This client's memories, each with its serial number and current version; only this client changes them.
  const owned: { memory: Memory; n: number; version: number }[] = [];
  let serial = 0;
  const token = (n: number, version: number) => `tok${seed}m${n}v${version}`;
  const remember = (memory: Memory) => ledger.latest.set(memory.id, memory);

  // Each operation returns the one it performed: those needing an active memory save instead when there is none.
  const ops: Record<Op, () => Promise<Op>> = {
    async save() {
      const n = serial++;
      const useCwd = n % 4 === 3;
      const cwd = pick(random, cwds);
      const content = `${label} memory ${n} version 0 token ${token(n, 0)}`;
      const { memory } = await clients.memory.save({
        content,
        kind: pick(random, KINDS),
        project: useCwd ? "" : pick(random, PROJECTS),
        cwd: useCwd ? cwd : "",
        concepts: [label, `n${n % 7}`],
        files: [`src/${label}/${n}.ts`],
        importance: 1 + (n % 5),
        sessionId: `session-${label}`,
        sourceAgent: label,
      });
      if (!memory || memory.content !== content || memory.status !== MemoryStatus.ACTIVE) {
        throw new Error(`save answered ${memory && memoryText(memory)}`);
      }
      if (useCwd) {
        const projects = ledger.projectsByCwd.get(cwd) ?? new Set<string>();
        projects.add(memory.project);
        ledger.projectsByCwd.set(cwd, projects);
      }
      owned.push({ memory, n, version: 0 });
      remember(memory);
      ledger.ids.push(memory.id);
      ledger.created += 1;
      return "save";
    },

    async checkpoint() {
      const n = serial++;
      const summary = `${label} finished task ${n} version 0 token ${token(n, 0)}`;
      const { memory } = await clients.memory.checkpoint({
        summary,
        problem: `problem ${n}`,
        solution: `solution ${n}`,
        files: [`src/${label}/${n}.ts`],
        concepts: [label],
        project: pick(random, PROJECTS),
        sessionId: `session-${label}`,
        sourceAgent: label,
      });
      if (!memory || memory.content !== summary || memory.kind !== MemoryKind.EPISODE || memory.provenance !== Provenance.CHECKPOINT) {
        throw new Error(`checkpoint answered ${memory && memoryText(memory)}`);
      }
      owned.push({ memory, n, version: 0 });
      remember(memory);
      ledger.ids.push(memory.id);
      ledger.created += 1;
      return "checkpoint";
    },

    async get() {
      // Half the reads are of this client's own memories, which must match exactly what it
      // last received; the rest read any client's memory, which must exist.
      if (owned.length > 0 && random() < 0.5) {
        const mine = pick(random, owned).memory;
        const { memory } = await clients.memory.get({ id: mine.id });
        check(memory !== undefined && equals(MemorySchema, memory, mine), `get ${mine.id} answered ${memory && memoryText(memory)}, expected ${memoryText(mine)}`);
        return "get";
      }
      if (ledger.ids.length === 0) return ops.save();
      const id = pick(random, ledger.ids);
      const { memory } = await clients.memory.get({ id });
      check(memory?.id === id, `get ${id} answered ${memory?.id}`);
      return "get";
    },

    async update() {
      const mine = pickActive();
      if (mine === null) return ops.save();
      const current = mine.memory;
      const version = mine.version + 1;
      const content = current.content.replace(/version \d+ token \S+/, `version ${version} token ${token(mine.n, version)}`);
      const importance = 1 + (version % 5);
      const { memory } = await clients.memory.update({ id: current.id, content, tags: { values: [`v${version}`] }, importance });
      if (!memory) throw new Error(`update of ${current.id} answered no memory`);
      // The three fields change, updateTime moves on, and nothing else differs.
      const expected = clone(MemorySchema, current);
      Object.assign(expected, { content, tags: [`v${version}`], importance, updateTime: memory.updateTime });
      check(equals(MemorySchema, memory, expected), `update answered ${memoryText(memory)}, expected ${memoryText(expected)}`);
      Object.assign(mine, { memory, version });
      remember(memory);
      return "update";
    },

    async search() {
      const mine = pickActive();
      if (mine === null) return ops.save();
      const target = mine.memory;
      const query = token(mine.n, mine.version);
      const { results } = await clients.memory.search({ query, project: target.project, limit: 5 });
      const ids = results.map((r) => r.memory?.id);
      check(ids.length === 1 && ids[0] === target.id, `search ${query} in ${target.project} found [${ids.join(", ")}], expected [${target.id}]`);
      // An archived memory leaves normal search.
      const gone = owned.find((m) => m.memory.status === MemoryStatus.ARCHIVED);
      if (gone) {
        const goneQuery = token(gone.n, gone.version);
        const { results: hidden } = await clients.memory.search({ query: goneQuery, allProjects: true });
        check(hidden.length === 0, `search ${goneQuery} found archived ${gone.memory.id}`);
      }
      return "search";
    },

    async list() {
      const project = pick(random, PROJECTS);
      const { memories } = await clients.memory.list({ project, pageSize: 20 });
      const wrong = memories.filter((m) => m.project !== project || m.status !== MemoryStatus.ACTIVE);
      check(wrong.length === 0, `list of ${project} returned ${wrong.map(memoryText).join(", ")}`);
      const ids = memories.map((m) => m.id);
      check(ids.every((id, i) => i === 0 || (ids[i - 1] as string) > id), `list of ${project} is not newest first: ${ids.join(", ")}`);
      return "list";
    },

    async archive() {
      const mine = pickActive();
      if (mine === null) return ops.save();
      const current = mine.memory;
      const reason = `${label} retired it`;
      const { memory } = await clients.memory.archive({ id: current.id, reason });
      if (!memory) throw new Error(`archive of ${current.id} answered no memory`);
      const expected = clone(MemorySchema, current);
      Object.assign(expected, { status: MemoryStatus.ARCHIVED, archiveReason: reason, updateTime: memory.updateTime });
      check(equals(MemorySchema, memory, expected), `archive answered ${memoryText(memory)}, expected ${memoryText(expected)}`);
      mine.memory = memory;
      remember(memory);
      ledger.archived += 1;
      return "archive";
    },
  };

  function pickActive() {
    const active = owned.filter((m) => m.memory.status === MemoryStatus.ACTIVE);
    return active.length === 0 ? null : pick(random, active);
  }

  for (let step = 0; step < CONNECT_OPS; step++) {
    const drawn = drawOp(random);
    try {
      count(ledger, label, await ops[drawn]());
    } catch (error) {
      ledger.failures.push(`${label} step ${step} (${drawn}): ${describeError(error)}`);
    }
  }
}

/**
 * One memctl client: CLI_ROUNDS rounds of add, update and search, then get and checkpoint in
 * even rounds, list and archive in odd ones.
 */
async function runCliClient(label: string, home: string, ledger: Ledger): Promise<void> {
  const cli = async (op: Op, args: string[]): Promise<unknown> => {
    const result = await runCli(home, ["--json", ...args]);
    if (result.code !== 0 || result.stderr !== "") {
      throw new Error(`memctl ${args[0]} exited ${result.code}: ${result.stderr.trim()}`);
    }
    count(ledger, label, op);
    return JSON.parse(result.stdout) as unknown;
  };
  const asMemory = (json: unknown) => fromJson(MemorySchema, json as JsonValue);

  for (let round = 0; round < CLI_ROUNDS; round++) {
    const project = PROJECTS[round % PROJECTS.length] as string;
    const tokenOf = (version: number) => `${label.replace("-", "")}r${round}v${version}`;
    try {
      const added = asMemory(await cli("save", ["add", "-p", project, "-k", "decision", "-c", `${label},round-${round}`, `${label} round ${round} token ${tokenOf(0)}`]));
      check(added.content === `${label} round ${round} token ${tokenOf(0)}` && added.project === project, `add answered ${memoryText(added)}`);
      ledger.ids.push(added.id);
      ledger.created += 1;
      ledger.latest.set(added.id, added);

      const newContent = `${label} round ${round} token ${tokenOf(1)}`;
      const updated = asMemory(await cli("update", ["update", added.id, "--content", newContent, "-t", "v1"]));
      check(updated.content === newContent && updated.tags.join() === "v1", `update answered ${memoryText(updated)}`);
      ledger.latest.set(updated.id, updated);

      const found = (await cli("search", ["search", "-p", project, tokenOf(1)])) as { memory: unknown }[];
      const foundIds = found.map((r) => asMemory(r.memory).id);
      check(foundIds.length === 1 && foundIds[0] === added.id, `search ${tokenOf(1)} found [${foundIds.join(", ")}]`);

      if (round % 2 === 1) {
        const listed = (await cli("list", ["list", "-p", project, "-n", "10"])) as { memories: unknown[] };
        check(listed.memories.map(asMemory).every((m) => m.project === project), `list -p ${project} returned other projects`);

        const archived = asMemory(await cli("archive", ["archive", added.id, "-r", `${label} round ${round}`]));
        check(archived.status === MemoryStatus.ARCHIVED, `archive answered ${memoryText(archived)}`);
        ledger.archived += 1;
        ledger.latest.set(archived.id, archived);
      } else {
        const got = asMemory(await cli("get", ["get", added.id]));
        check(equals(MemorySchema, got, updated), `get answered ${memoryText(got)}, expected ${memoryText(updated)}`);
        const summary = `${label} checkpoint ${round} token ${label.replace("-", "")}c${round}`;
        const episode = asMemory(await cli("checkpoint", ["checkpoint", "-p", project, "--problem", "p", "--solution", "s", "-f", "a.ts", summary]));
        check(episode.content === summary && episode.kind === MemoryKind.EPISODE, `checkpoint answered ${memoryText(episode)}`);
        ledger.ids.push(episode.id);
        ledger.created += 1;
        ledger.latest.set(episode.id, episode);
      }
    } catch (error) {
      ledger.failures.push(`${label} round ${round}: ${describeError(error)}`);
    }
  }
}

interface LogEntry {
  level: number;
  msg?: string;
}

function readLog(home: string): { lines: string[]; entries: LogEntry[] } {
  const lines = fs.readFileSync(path.join(home, "logs", "memd.log"), "utf8").split("\n").filter((line) => line !== "");
  return { lines, entries: lines.map((line) => JSON.parse(line) as LogEntry) };
}

describe("eight clients working one daemon at once", () => {
  it("serves every call without a failure, a busy database or an error in the log, and keeps the counts consistent", async () => {
    const home = makeHome();
    homes.push(home);
    const daemon = await spawnDaemon({ home });
    daemons.push(daemon);
    // Two plain directories: saves that send one of them as cwd share the project derived from it.
    const cwds = ["repo-one", "repo-two"].map((name) => path.join(home, name));
    for (const cwd of cwds) fs.mkdirSync(cwd);
    const ledger: Ledger = { created: 0, archived: 0, calls: new Map(), failures: [], ids: [], latest: new Map(), projectsByCwd: new Map() };

    await Promise.all([
      ...CONNECT_CLIENTS.map(({ label, transport }, i) =>
        runConnectClient(label, i + 1, createMemdClients(createSocketTransport({ socketPath: daemon.socketPath, timeoutMs: 30_000, ...transport })), cwds, ledger),
      ),
      ...CLI_CLIENTS.map((label) => runCliClient(label, home, ledger)),
    ]);

    expect(ledger.failures).toEqual([]);
    const callsBy = (prefix: string) => [...ledger.calls].filter(([key]) => key.startsWith(`${prefix} `)).reduce((sum, [, n]) => sum + n, 0);
    for (const { label } of CONNECT_CLIENTS) expect(callsBy(label), label).toBe(CONNECT_OPS);
    for (const label of CLI_CLIENTS) expect(callsBy(label), label).toBe(CLI_ROUNDS * CLI_CALLS_PER_ROUND);
    // The mix really was mixed: every operation ran, through every client.
    for (const label of [...CONNECT_CLIENTS.map((c) => c.label), ...CLI_CLIENTS]) {
      for (const op of OPS) expect(ledger.calls.get(`${label} ${op}`) ?? 0, `${label} ${op}`).toBeGreaterThan(0);
    }
    // A working directory always maps to the same project, however many clients raced to create it.
    for (const cwd of cwds) expect([...(ledger.projectsByCwd.get(cwd) ?? [])], cwd).toHaveLength(1);

    const stats = await daemon.clients.admin.stats({});
    const byStatus = Object.fromEntries(stats.byStatus.map((c) => [c.key, Number(c.count)]));
    expect(Number(stats.total)).toBe(ledger.created);
    expect(byStatus).toEqual({ active: ledger.created - ledger.archived, archived: ledger.archived });
    expect(ledger.latest.size).toBe(ledger.created);

    // Every memory ends as the last write its owner saw.
    const stale: string[] = [];
    const latest = [...ledger.latest.values()];
    for (let i = 0; i < latest.length; i += 50) {
      await Promise.all(
        latest.slice(i, i + 50).map(async (expected) => {
          const { memory } = await daemon.clients.memory.get({ id: expected.id });
          if (!memory || !equals(MemorySchema, memory, expected)) stale.push(`${expected.id}: ${memory && memoryText(memory)} != ${memoryText(expected)}`);
        }),
      );
    }
    expect(stale).toEqual([]);

    expect(await daemon.stop()).toBe(0);
    const log = readLog(home);
    expect(log.lines.filter((line) => line.includes("SQLITE_BUSY"))).toEqual([]);
    expect(log.entries.filter((entry) => entry.level >= 50)).toEqual([]);
    expect(log.entries.filter((entry) => entry.msg === "rpc rejected" || entry.msg === "rpc failed")).toEqual([]);
    // The log was written: one "rpc ok" line for each call made above, at least.
    const callsMade = [...ledger.calls.values()].reduce((sum, n) => sum + n, 0);
    expect(log.entries.filter((entry) => entry.msg === "rpc ok").length).toBeGreaterThanOrEqual(callsMade);
  }, 120_000);
});
