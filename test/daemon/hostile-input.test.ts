import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { toJson } from "@bufbuild/protobuf";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind, MemorySchema } from "../../gen/memd/v1/memory_pb.js";
import { freePort, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { answerCode, isAcceptableAnswer } from "../hostile/answer-code.js";
import { type Exchange, h1Request, h2Connect, type Listener, rawExchange } from "../hostile/http-exchange.js";
import { describeCall, frame, type HostileCall, hostilePayload, mangledPayload, protocolsOf } from "../hostile/hostile-request.js";
import type { ValueContext } from "../hostile/hostile-values.js";
import { KNOWN_OPEN } from "../hostile/known-open.js";
import { rawH2c, rawHttp1, type RawGarbage } from "../hostile/raw-garbage.js";
import { fieldTargets, loadRpcs, type Rpc } from "../hostile/rpc-catalogue.js";

// A fixed seed, so that a failure found in CI comes back on any machine: MEMD_HOSTILE_SEED=<seed>.
const SEED = Number(process.env.MEMD_HOSTILE_SEED ?? 20_170_017);
// About 30 s on two cores; MEMD_HOSTILE_RUNS=10000 (about 2 min) measures the issue's target.
const RUNS = Number(process.env.MEMD_HOSTILE_RUNS ?? 2_500);
const RAW_RUNS = Math.ceil(RUNS / 3);
// Calls in flight at once, and how many are generated (and held in memory) at a time.
const CONCURRENCY = 6;
const BATCH = 60;
// A Connect GET carries the message in its URL; past this it is sent as a POST instead.
const MAX_GET_PAYLOAD = 6_000;
// Not a timing assertion: a call that never answers must fail the suite instead of hanging it.
const NO_ANSWER_MS = 60_000;
// memd's read limit (READ_MAX_BYTES in daemon.ts): a body past it may be cut off while it is still going out.
const READ_MAX_BYTES = 32 * 1024 * 1024;

// Fields of a memory that no hostile call may change; counters and times move with every read.
const STABLE_FIELDS = ["id", "content", "kind", "project", "problem", "solution", "concepts", "files", "tags", "status", "pinned", "importance", "createTime", "provenance", "sessionId", "sourceAgent"];

interface Finding {
  rpc: string;
  target: string;
  code: string;
  detail: string;
}

let daemon: TestDaemon;
let port: number;
let token: string;
let sandbox: string;
let rpcs: Rpc[];
let ctx: ValueContext;
const protectedMemories: Record<string, unknown>[] = [];

function stable(json: unknown): Record<string, unknown> {
  const all = json as Record<string, unknown>;
  return Object.fromEntries(STABLE_FIELDS.filter((key) => key in all).map((key) => [key, all[key]]));
}

beforeAll(async () => {
  port = await freePort();
  const home = fs.mkdtempSync("/tmp/memd-h-");
  sandbox = path.join(home, "sandbox");
  fs.mkdirSync(path.join(sandbox, "claude"), { recursive: true });
  daemon = await spawnDaemon({
    home,
    args: ["--listen", `127.0.0.1:${port}`],
    // Everything a call could write to or fetch from stays inside the sandbox: Claude Code's
    // files, skills under HOME, and the model hub (a port nothing listens on).
    env: { MEMD_CLAUDE_HOME: path.join(sandbox, "claude"), HOME: sandbox, MEMD_HF_ENDPOINT: "http://127.0.0.1:9", MEMD_LOG_LEVEL: "warn" },
  });
  token = fs.readFileSync(path.join(home, "token"), "utf8").trim();
  rpcs = await loadRpcs();
  // A project no generator names: what is saved in it must come through the run unchanged.
  // Three different statements: near-copies would be merged by the (default, instant) embedder's
  // dedup, which is not what this test watches for.
  for (const [content, kind] of [
    ["protected fact: the build uses pnpm workspaces", MemoryKind.FACT],
    ["protected decision: releases are tagged from the main branch every Tuesday", MemoryKind.DECISION],
    ["protected procedure: run make bootstrap once before the first build", MemoryKind.PROCEDURE],
  ] as const) {
    const { memory } = await daemon.clients.memory.save({ content, project: "hostile-protected-3f9c", kind, tags: ["kept"], concepts: ["pnpm"], files: ["package.json"] });
    const { memory: stored } = await daemon.clients.memory.get({ id: memory?.id ?? "" });
    protectedMemories.push(stable(toJson(MemorySchema, stored ?? memory ?? ({} as never))));
  }
  const { memory: victim } = await daemon.clients.memory.save({ content: "a memory hostile calls may change", project: "hostile" });
  ctx = { sandbox, victimId: victim?.id ?? "" };
});

afterAll(async () => {
  if (daemon.process.exitCode === null) await daemon.stop();
  fs.rmSync(daemon.home, { recursive: true, force: true });
});

function hostileCalls(): fc.Arbitrary<HostileCall> {
  const targets = rpcs.flatMap(fieldTargets);
  const payloads = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...targets).chain((t) => hostilePayload(t, ctx).map((p) => ({ rpc: t.rpc, target: t.name, ...p }))) },
    { weight: 1, arbitrary: fc.constantFrom(...rpcs).chain((rpc) => mangledPayload(rpc, ctx).map((p) => ({ rpc, target: "(whole message)", ...p }))) },
  );
  return payloads.chain(({ rpc, target, wire, payload }) =>
    fc.tuple(fc.constantFrom(...protocolsOf(rpc)), fc.nat({ max: 4 }), fc.boolean()).map(([protocol, gzipDraw, http2]) => {
      const chosen = protocol === "connect-get" && payload.length > MAX_GET_PAYLOAD ? "connect" : protocol;
      return frame(rpc, target, wire, payload, chosen, gzipDraw === 0, http2);
    }),
  );
}

function withDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${NO_ANSWER_MS / 1000} s: ${what}`)), NO_ANSWER_MS);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

async function send(call: HostileCall, listener: Listener): Promise<Exchange> {
  const request = "port" in listener ? { ...call.request, headers: { ...call.request.headers, authorization: `Bearer ${token}` } } : call.request;
  if (!call.http2) return h1Request(listener, request);
  const connection = h2Connect(listener);
  try {
    return await connection.request(request);
  } finally {
    connection.close();
  }
}

/** Runs items through `work`, a few at a time, in generated batches. */
async function runBatches<T>(arbitrary: fc.Arbitrary<T>, runs: number, work: (item: T, index: number) => Promise<void>, afterBatch: (batch: T[]) => Promise<void>): Promise<void> {
  for (let start = 0, batchNo = 0; start < runs; start += BATCH, batchNo += 1) {
    const batch = fc.sample(arbitrary, { seed: SEED + batchNo, numRuns: Math.min(BATCH, runs - start) });
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < batch.length) {
          const index = next++;
          await work(batch[index] as T, start + index);
        }
      }),
    );
    await afterBatch(batch);
  }
}

async function expectAlive(after: () => string): Promise<void> {
  if (daemon.process.exitCode !== null || daemon.process.signalCode !== null) {
    throw new Error(`memd died (exit ${daemon.process.exitCode}, signal ${daemon.process.signalCode}) during one of these (seed ${SEED}):\n${after()}\n${daemon.stderr().slice(-2_000)}`);
  }
  const health = await daemon.clients.admin.health({});
  expect(health.health?.version).not.toBe("");
}

function report(title: string, findings: Finding[], counts: Map<string, number>): string {
  const byCode = [...counts].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code}: ${n}`).join(", ");
  const lines = findings.slice(0, 40).map((f) => `- ${f.rpc} ${f.target} -> ${f.code}\n  ${f.detail}`);
  return `${title} (seed ${SEED}, MEMD_HOSTILE_SEED=${SEED} to repeat)\nanswers: ${byCode}\n${lines.join("\n")}${findings.length > 40 ? `\n... and ${findings.length - 40} more` : ""}`;
}

/** The daemon's last logged errors, which name the cause that an internal answer keeps to itself. */
function loggedErrors(): string {
  const log = path.join(daemon.home, "logs/memd.log");
  if (!fs.existsSync(log)) return "";
  const errors = fs.readFileSync(log, "utf8").split("\n").filter((line) => /"level":(50|60)/.test(line));
  return errors.slice(-15).map((line) => line.slice(0, 600)).join("\n");
}

function isKnownOpen(f: Finding): boolean {
  return KNOWN_OPEN.some((k) => k.rpc === f.rpc && k.target === f.target);
}

describe("hostile input", () => {
  it("answers malformed and oversized values in every field of every RPC with a documented code, never internal", { timeout: 3_600_000 }, async () => {
    const findings: Finding[] = [];
    const counts = new Map<string, number>();
    await runBatches(
      hostileCalls(),
      RUNS,
      async (call, index) => {
        const listener: Listener = index % 3 === 0 ? { port } : { socketPath: daemon.socketPath };
        let code: string;
        let answer: Exchange | undefined;
        try {
          answer = await withDeadline(send(call, listener), describeCall(call));
          code = answerCode(answer);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          code = reason.startsWith("no answer in") ? "no answer" : "connection closed";
        }
        counts.set(code, (counts.get(code) ?? 0) + 1);
        // A connection cut while a body over the read limit was still going out is no answer to
        // judge; for any other call it is a wrong answer.
        const cutOff = code === "connection closed" && (call.request.body?.byteLength ?? 0) > READ_MAX_BYTES;
        if (!isAcceptableAnswer(code) && !cutOff) {
          const said = answer ? JSON.stringify(`${answer.body.subarray(0, 300).toString("latin1")} ${String(answer.trailers["grpc-message"] ?? answer.headers["grpc-message"] ?? "")}`) : "";
          findings.push({ rpc: call.rpc.name, target: call.target, code, detail: `${describeCall(call)}\n  answered: ${said}` });
        }
      },
      (batch) => expectAlive(() => batch.map(describeCall).join("\n")),
    );
    const open = findings.filter(isKnownOpen);
    const unexpected = findings.filter((f) => !isKnownOpen(f));
    console.log(report(`${RUNS} hostile calls: ${findings.length} wrong answers, ${open.length} of them known open`, findings, counts));
    const stale = KNOWN_OPEN.filter((k) => !open.some((f) => f.rpc === k.rpc && f.target === k.target));
    if (stale.length > 0) console.log(`known-open entries that matched nothing this run (remove them once fixed): ${stale.map((k) => `${k.rpc} ${k.target}`).join(", ")}`);
    expect(unexpected, `${report("hostile calls answered wrongly", unexpected, counts)}\nlogged errors:\n${loggedErrors()}`).toEqual([]);
  });

  it("survives raw HTTP/1.0, HTTP/1.1 and h2c garbage on the socket and the TCP port", { timeout: 3_600_000 }, async () => {
    const findings: Finding[] = [];
    const counts = new Map<string, number>();
    const garbage = fc.oneof({ weight: 2, arbitrary: rawHttp1(rpcs.map((r) => r.path), token) }, { weight: 1, arbitrary: rawH2c() });
    await runBatches<RawGarbage>(
      garbage,
      RAW_RUNS,
      async (item, index) => {
        const listener: Listener = index % 2 === 0 ? { port } : { socketPath: daemon.socketPath };
        const answer = (await withDeadline(rawExchange(listener, item.bytes), item.kind)).toString("latin1");
        const status = answer.match(/^HTTP\/1\.[01] (\d{3})/)?.[1];
        const code = status ? `http ${status}` : answer.length === 0 ? "closed" : "h2 frames";
        counts.set(`${item.kind} ${code}`, (counts.get(`${item.kind} ${code}`) ?? 0) + 1);
        const internal = /"code":"(internal|unknown)"|grpc-status: ?(13|2)\r\n/.test(answer);
        if ((status && status >= "500") || internal) {
          findings.push({ rpc: item.kind, target: "(raw bytes)", code, detail: `${JSON.stringify(Buffer.from(item.bytes.subarray(0, 400)).toString("latin1"))}\n  answered: ${JSON.stringify(answer.slice(0, 300))}` });
        }
      },
      (batch) => expectAlive(() => batch.map((b) => JSON.stringify(Buffer.from(b.bytes.subarray(0, 200)).toString("latin1"))).join("\n")),
    );
    console.log(report(`${RAW_RUNS} raw exchanges: ${findings.length} wrong answers`, findings, counts));
    expect(findings, report("raw garbage answered wrongly", findings, counts)).toEqual([]);
  });

  it("keeps what was saved before the run, and the database passes integrity_check", async () => {
    await expectAlive(() => "the end of the run");
    for (const before of protectedMemories) {
      const { memory } = await daemon.clients.memory.get({ id: String(before.id) });
      expect(stable(toJson(MemorySchema, memory ?? ({} as never)))).toEqual(before);
    }
    expect(await daemon.stop()).toBe(0);
    const db = new Database(path.join(daemon.home, "memd.db"), { readonly: true, fileMustExist: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      db.close();
    }
  });
});
