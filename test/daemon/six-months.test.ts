import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind, MemoryStatus, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import type { MemdClients } from "../../clients/transport/transport.js";
import { knownOllamaModel } from "../../daemon/src/embed/ollama-models.js";
import { DEFAULT_CLUSTER_CONFIG } from "../../daemon/src/lifecycle/cluster-aging.js";
import { DEFAULT_DEDUP_CONFIG } from "../../daemon/src/lifecycle/dedup.js";
import { startFakeOllama } from "../embed/fake-ollama.js";
import { type LocalServer, unitFakeVector } from "../embed/local-http-server.js";
import { fakeClock, type InProcessDaemon, startInProcessDaemon } from "../helpers/in-process-daemon.js";

/*
 * Six months of use, lived week by week against one daemon with a fake clock. Every expected
 * number below follows from the lifecycle rules with the default half-lives (no tuning to what
 * the daemon happened to do):
 *   weight = 2^(-(t / half-life) * (1 - confidence)), t since creation or the last reinforcement;
 *   GC archives weight < 0.1, consolidation takes weight < 0.3, staged guesses expire after 30 days.
 * So a saved episode (7 days, confidence 0.5) is archived 46.5 days after its anchor; a checkpoint
 * episode (confidence 0.65) after 66.4 days, i.e. ten weekly steps; a trace (1 day) after 6.6
 * days; a task (14 days) after 93 days. Ideas, rules and pinned memories never decay.
 *
 * Maintenance also runs in the background (after every ten saves, and daily by the wall clock).
 * Before every look the test runs Consolidate and then Clean itself: both only ever act on what
 * has crossed a threshold, so the state seen is the same whenever background runs happened.
 *
 * The `it` blocks are consecutive months of one life and must run in order.
 */

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const T0 = Date.UTC(2025, 0, 6, 10); // a Monday morning
const clock = fakeClock(T0);

type SaveInit = Parameters<MemdClients["memory"]["save"]>[0];

/** What gets saved, by label. Session ids say who said it; s-a, s-b and s-c are agent sessions. */
const NOTES = {
  pref: { content: "Always use pnpm, never npm, in every repository", kind: MemoryKind.PREFERENCE, project: "global", provenance: Provenance.HUMAN },
  dec1: { content: "Authentication uses Clerk sessions, not hand-rolled JWT", kind: MemoryKind.DECISION, project: "acme-api" },
  rule1: {
    content: "Never push to main directly; every change goes through a pull request",
    kind: MemoryKind.RULE,
    project: "acme-api",
    provenance: Provenance.HUMAN,
    reviewTime: timestampFromMs(T0 + 60 * DAY),
  },
  pin: { content: "The staging database is reset every Sunday at 02:00 UTC", kind: MemoryKind.TRACE, project: "acme-api", pinned: true },
  idea: { content: "Idea: an offline mode for the webapp using a service worker", kind: MemoryKind.IDEA, project: "webapp" },
  proc: { content: "Run make migrate-up before starting the API locally", kind: MemoryKind.PROCEDURE, project: "acme-api", provenance: Provenance.DEBATE },
  fact: { content: "The webapp is deployed on Vercel from the main branch", kind: MemoryKind.FACT, project: "webapp" },
  context: { content: "The webapp serves about 2,000 daily users, mostly in Europe", kind: MemoryKind.CONTEXT, project: "webapp" },
  task: { content: "Finish the rate limiter for the payments endpoint", kind: MemoryKind.TASK, project: "acme-api" },
  trace1: { content: "npm test failed with EADDRINUSE on port 5432", kind: MemoryKind.TRACE, project: "acme-api" },
  epRecalled: {
    content: "Debugged double charging in the webhook worker: the idempotency key was missing",
    kind: MemoryKind.EPISODE,
    project: "webapp",
  },
  epRepeated: { content: "Fixed the flaky billing test by freezing the clock", kind: MemoryKind.EPISODE, project: "webapp" },
  squash: { content: "Prefers squash merges for feature branches", kind: MemoryKind.PREFERENCE, project: "global", provenance: Provenance.DISTILLED, sessionId: "s-a" },
  retries: { content: "The payments service retries webhooks three times", kind: MemoryKind.FACT, project: "acme-api", provenance: Provenance.DISTILLED, sessionId: "s-a" },
  rule2: { content: "Commit messages follow Conventional Commits", kind: MemoryKind.RULE, project: "global", provenance: Provenance.HUMAN },
  tailwind: { content: "Prefers Tailwind utility classes over CSS modules", kind: MemoryKind.PREFERENCE, project: "webapp", provenance: Provenance.DISTILLED, sessionId: "s-a" },
  certificate: {
    content: "The staging TLS certificate is temporary and lapses in March",
    kind: MemoryKind.FACT,
    project: "acme-api",
    expireTime: timestampFromMs(T0 + 80 * DAY),
  },
  e1: { content: "Deploy of the webapp failed because the build cache was stale; cleared the cache", kind: MemoryKind.EPISODE, project: "webapp", sessionId: "s2" },
  e2: { content: "Deploy of the webapp failed because the build cache was stale; pinned Node 20", kind: MemoryKind.EPISODE, project: "webapp", sessionId: "s2" },
  rsc: { content: "The webapp uses React Server Components", kind: MemoryKind.FACT, project: "webapp", provenance: Provenance.DISTILLED, sessionId: "s-a" },
  fastify: { content: "The API will move from Express to Fastify", kind: MemoryKind.DECISION, project: "acme-api", provenance: Provenance.DISTILLED, sessionId: "s-b" },
  hmac: { content: "Webhook payloads are signed with HMAC-SHA256", kind: MemoryKind.FACT, project: "acme-api", provenance: Provenance.DISTILLED, sessionId: "s-b" },
  trace2: { content: "pnpm install timed out with ETIMEDOUT against the registry", kind: MemoryKind.TRACE, project: "acme-api" },
  trace3: { content: "Playwright screenshot diff failed on the header logo", kind: MemoryKind.TRACE, project: "webapp" },
} satisfies Record<string, SaveInit>;

const CORRECTIONS = {
  dec2: "Authentication moved from Clerk to Auth0 for enterprise single sign-on",
  dec3: "Authentication moved from Auth0 to WorkOS to cut costs",
};

/** One checkpoint episode per week, alternating projects, each about something else. */
const WEEKLY = [
  "Set up the acme-api repository and its CI pipeline",
  "Paired on the webapp login page layout",
  "Wrote integration tests for the invoices endpoint",
  "Reviewed the accessibility audit of the webapp forms",
  "Profiled slow SQL queries behind the reports endpoint",
  "Moved webapp icons to an SVG sprite sheet",
  "Added structured logging with request ids to acme-api",
  "Fixed layout shift on the webapp pricing page",
  "Rotated the acme-api database credentials",
  "Upgraded the webapp bundler and cut build time in half",
  "Added pagination to the customers list endpoint",
  "Translated the webapp settings screen into German",
  "Investigated memory growth in the queue consumer",
  "Built a dark theme toggle for the webapp",
  "Documented the acme-api error codes",
  "Added keyboard shortcuts to the webapp editor",
  "Split the monolithic acme-api router into modules",
  "Lazy-loaded the webapp charts library",
  "Enabled gzip compression on acme-api responses",
  "Cleaned up unused webapp feature flags",
  "Introduced contract tests between acme-api and billing",
  "Optimised image uploads in the webapp",
  "Reduced cold start time of acme-api containers",
  "Added an empty state to the webapp dashboard",
  "Tuned connection pool sizes for acme-api",
  "Fixed focus trapping in webapp modals",
  "Archived old acme-api feature branches",
];

let ollama: LocalServer;
let memd: InProcessDaemon;
/** Every memory ever created, by label: none may ever disappear. */
const ids = new Map<string, string>();
let week = -1;

beforeAll(async () => {
  // A local server speaking the Ollama API gives deterministic vectors, so consolidation really runs.
  ollama = await startFakeOllama();
  memd = await startInProcessDaemon({ clock, env: { MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url } });
});
afterAll(async () => {
  await memd?.close();
  await ollama?.close();
});

const memory = () => memd.clients.memory;
const admin = () => memd.clients.admin;

function id(label: string): string {
  const found = ids.get(label);
  if (found === undefined) throw new Error(`nothing saved as ${label} yet`);
  return found;
}

function remember(label: string, memoryId: string | undefined): void {
  if (!memoryId) throw new Error(`${label} came back without an id`);
  if (ids.has(label)) throw new Error(`${label} was saved twice`);
  ids.set(label, memoryId);
}

async function save(label: keyof typeof NOTES) {
  const res = await memory().save({ ...NOTES[label], waitForVector: true });
  expect(res.mergedInto).toBe("");
  remember(label, res.memory?.id);
  return res;
}

/** Says a noted thing again, from `sessionId`: dedup must fold it into the memory already there. */
async function repeat(label: keyof typeof NOTES, sessionId: string) {
  const res = await memory().save({ ...NOTES[label], sessionId, waitForVector: true });
  expect(res.mergedInto).toBe(id(label));
  return res.memory;
}

async function supersede(label: keyof typeof CORRECTIONS, old: string, sessionId: string) {
  const res = await memory().supersede({ id: id(old), content: CORRECTIONS[label], reason: "decided otherwise", sessionId });
  remember(label, res.memory?.id);
}

/** Waits (in real time) until every memory written so far has its vector. */
async function settle(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await admin().stats({})).embedder?.queueDepth === 0n) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("embeddings did not catch up");
}

/** The label of a consolidated memory: its originals' labels, e.g. "e1+e2". */
function mergedLabel(originalIds: readonly string[]): string {
  const labels = new Map([...ids].map(([label, memoryId]) => [memoryId, label]));
  return originalIds.map((o) => labels.get(o) ?? o).join("+");
}

/** Consolidate then Clean, as the scheduled run does; then both again, which must change nothing. */
async function maintain(): Promise<void> {
  await settle();
  for (const c of (await admin().consolidate({})).consolidations) remember(mergedLabel(c.originalIds), c.memory?.id);
  await admin().clean({});
  expect((await admin().consolidate({})).consolidations).toEqual([]);
  expect((await admin().clean({})).archived).toEqual([]);
}

const WEEK_SCRIPT: Record<number, () => Promise<void>> = {
  0: async () => {
    for (const label of ["pref", "dec1", "rule1", "pin", "idea", "proc", "fact", "context", "task", "trace1", "epRecalled", "epRepeated"] as const) {
      await save(label);
    }
  },
  1: async () => {
    await save("squash");
    await save("retries");
  },
  2: async () => {
    // The same guess from another session is independent agreement: promoted.
    expect(await repeat("squash", "s-b")).toMatchObject({ status: MemoryStatus.ACTIVE, confidence: 0.5 });
    // The session that guessed it repeating itself is not.
    expect(await repeat("retries", "s-a")).toMatchObject({ status: MemoryStatus.STAGED, confidence: 0.3 });
    await save("rule2");
  },
  3: async () => {
    await repeat("epRepeated", "s2");
    await save("tailwind");
    // Reading a guess back, even in full, is not evidence for it.
    const read = await memory().recall({ ids: [id("tailwind")], depth: 2 });
    expect(read.memories.map((m) => m.memory?.status)).toEqual([MemoryStatus.STAGED]);
    expect((await memory().get({ id: id("tailwind") })).memory?.status).toBe(MemoryStatus.STAGED);
  },
  5: async () => {
    expect(await repeat("tailwind", "s-c")).toMatchObject({ status: MemoryStatus.ACTIVE });
  },
  6: async () => {
    await supersede("dec2", "dec1", "s2");
    await repeat("epRepeated", "s3");
  },
  8: async () => {
    await save("certificate");
  },
  10: async () => {
    await save("e1");
    await save("e2");
  },
  12: async () => {
    await repeat("e1", "s3");
    await save("rsc");
  },
  15: async () => {
    await supersede("dec3", "dec2", "s3");
  },
  20: async () => {
    await save("fastify");
  },
  22: async () => {
    expect(await repeat("fastify", "s-c")).toMatchObject({ status: MemoryStatus.ACTIVE });
  },
  24: async () => {
    await save("hmac");
  },
  25: async () => {
    await save("trace2");
  },
  26: async () => {
    await save("trace3");
  },
};

/** Lives every week up to and including `last`: the week's script, a checkpoint, a recall. */
async function liveThrough(last: number): Promise<void> {
  while (week < last) {
    week += 1;
    clock.set(T0 + week * WEEK);
    await WEEK_SCRIPT[week]?.();
    const summary = WEEKLY[week] as string;
    const cp = await memory().checkpoint({ summary, project: week % 2 === 0 ? "acme-api" : "webapp", sessionId: `week-${week}` });
    remember(`week-${week}`, cp.memory?.id);
    if (week <= 6) {
      // The debugging episode is looked up in full every week of its first six.
      const recalled = await memory().recall({ query: "double charging webhook worker idempotency", project: "webapp", depth: 2, limit: 3 });
      expect(recalled.memories.map((m) => m.id)).toContain(id("epRecalled"));
    }
    await settle();
  }
}

async function ledger(project = ""): Promise<Record<string, number>> {
  const stats = await admin().stats({ project });
  return Object.fromEntries(stats.ledger.map((c) => [c.key, Number(c.count)]));
}

async function recalled(query: string, project: string): Promise<string[]> {
  return (await memory().recall({ query, project, limit: 10 })).memories.map((m) => m.id);
}

async function keyword(query: string, project: string, statuses: MemoryStatus[] = []): Promise<string[]> {
  const res = await memory().search({ query, project, mode: SearchMode.KEYWORD, statuses });
  return res.results.map((r) => r.memory?.id ?? "");
}

/** A checkpoint episode (confidence 0.65) falls below 0.1 after 66.4 days: ten weekly steps. */
function weeklyEpisodes(now: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let w = 0; w <= now; w++) out[`week-${w}`] = now - w >= 10 ? "archived:decayed" : "active";
  return out;
}

/**
 * Opens the database file read-only and checks that every memory ever created is still a row
 * (nothing was deleted, nothing unknown appeared) with the status and archive reason expected.
 */
function expectDatabase(expected: Record<string, string>): void {
  const db = new Database(memd.dbFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT id, status, archive_reason FROM memories").all() as { id: string; status: string; archive_reason: string }[];
    expect(rows.map((r) => r.id).sort()).toEqual([...ids.values()].sort());
    const byId = new Map(rows.map((r) => [r.id, r.status === "archived" ? `archived:${r.archive_reason}` : r.status]));
    const actual = Object.fromEntries([...ids].map(([label, memoryId]) => [label, byId.get(memoryId)]));
    expect(actual).toEqual({ ...expected, ...weeklyEpisodes(week) });
  } finally {
    db.close();
  }
}

function cosine(a: Float32Array, b: Float32Array): number {
  return a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);
}

describe("six months of use", () => {
  it("is built from texts the fake embedder keeps apart, except one pair that is similar but no duplicate", () => {
    const prefix = knownOllamaModel("nomic-embed-text")?.documentPrefix ?? "";
    const vector = (text: string) => unitFakeVector(prefix + text, 768);
    const pair = cosine(vector(NOTES.e1.content), vector(NOTES.e2.content));
    expect(pair).toBeGreaterThan(DEFAULT_CLUSTER_CONFIG.similarityAbove);
    expect(pair).toBeLessThanOrEqual(DEFAULT_DEDUP_CONFIG.similarityThreshold);
    const others = [...Object.values(NOTES).map((n) => n.content).filter((c) => c !== NOTES.e2.content), ...Object.values(CORRECTIONS), ...WEEKLY];
    let closest = 0;
    for (const [i, a] of others.entries()) for (const b of others.slice(i + 1)) closest = Math.max(closest, cosine(vector(a), vector(b)));
    // Below the consolidation threshold, and so below corroboration (0.85) and dedup (0.92) too.
    expect(closest).toBeLessThan(DEFAULT_CLUSTER_CONFIG.similarityAbove);
  });

  it("month 1: a trace has decayed away, guesses wait for another session, the ledger adds up", async () => {
    await liveThrough(4);
    await maintain();

    expect(await ledger()).toMatchObject({
      active: 18, staged: 2, reinforced: 3, promoted: 1, episodes: 7,
      archived: 1, superseded: 0, consolidated: 0, expired: 0, decayed: 1, review: 0,
    });
    expect(await recalled("pnpm", "acme-api")).toContain(id("pref"));
    expect(await recalled("authentication Clerk", "acme-api")).toContain(id("dec1"));
    // Four weeks old (weight 0.25): fading but still recalled.
    expect(await recalled("double charging webhook worker", "webapp")).toContain(id("epRecalled"));
    expect(await keyword("squash merges", "webapp")).toEqual([id("squash")]);
    // Guesses nobody else confirmed are invisible to normal search and recall.
    expect(await keyword("retries webhooks", "acme-api")).toEqual([]);
    expect(await recalled("Tailwind utility classes", "webapp")).not.toContain(id("tailwind"));
    expect(await keyword("retries webhooks", "acme-api", [MemoryStatus.STAGED])).toEqual([id("retries")]);
    expect(await keyword("EADDRINUSE", "acme-api")).toEqual([]);
    expect(await keyword("EADDRINUSE", "acme-api", [MemoryStatus.ARCHIVED])).toEqual([id("trace1")]);

    expectDatabase({
      pref: "active", dec1: "active", rule1: "active", pin: "active", idea: "active", proc: "active", fact: "active",
      context: "active", task: "active", trace1: "archived:decayed", epRecalled: "active", epRepeated: "active",
      squash: "active", retries: "staged", rule2: "active", tailwind: "staged",
    });
  });

  it("month 2: recall did not keep an episode alive, saving it again did; a correction replaced a decision; a stale guess expired", async () => {
    await liveThrough(9);
    await maintain();

    // Read in full seven times, yet never reinforced: archived 49 days after it was saved.
    const looked = (await memory().get({ id: id("epRecalled") })).memory;
    expect(looked).toMatchObject({ status: MemoryStatus.ARCHIVED, archiveReason: "decayed", accessCount: 7n });
    expect((await memory().history({ id: id("epRecalled") })).events.map((e) => e.action)).toEqual(["created", "archived"]);
    expect(await recalled("double charging webhook worker", "webapp")).not.toContain(id("epRecalled"));
    // Saved on day 0 too, but said again by two other sessions (last on day 42): still here.
    expect(await recalled("flaky billing test", "webapp")).toContain(id("epRepeated"));

    const auth = await recalled("authentication", "acme-api");
    expect(auth).toContain(id("dec2"));
    expect(auth).not.toContain(id("dec1"));
    expect((await memory().get({ id: id("retries") })).memory).toMatchObject({ status: MemoryStatus.ARCHIVED, archiveReason: "staged-stale" });
    // The rule's own review date (day 60) has passed; the one without a date is due after 90 days.
    expect((await memory().sync({ project: "acme-api" })).reviewDue.map((m) => m.id)).toEqual([id("rule1")]);

    expect(await ledger()).toMatchObject({
      active: 24, staged: 0, reinforced: 4, promoted: 2, episodes: 11,
      archived: 3, superseded: 1, consolidated: 0, expired: 0, decayed: 2, review: 1,
    });
    expectDatabase({
      pref: "active", dec1: "superseded", rule1: "active", pin: "active", idea: "active", proc: "active", fact: "active",
      context: "active", task: "active", trace1: "archived:decayed", epRecalled: "archived:decayed", epRepeated: "active",
      squash: "active", retries: "archived:staged-stale", rule2: "active", tailwind: "active", dec2: "active", certificate: "active",
    });
  });

  it("month 3: expired and decayed memories are archived, never deleted, and the ledger says so", async () => {
    await liveThrough(13);
    await maintain();

    expect(await ledger()).toMatchObject({
      active: 24, staged: 1, reinforced: 5, promoted: 2, episodes: 12,
      archived: 9, superseded: 1, consolidated: 0, expired: 1, decayed: 7, review: 1,
    });
    // The task is 91 days old: weight 2^(-91/28) = 0.105, just above the line.
    expect(await recalled("rate limiter payments", "acme-api")).toContain(id("task"));
    expect(await recalled("flaky billing test", "webapp")).not.toContain(id("epRepeated"));
    expect(await keyword("TLS certificate", "acme-api")).toEqual([]);
    expect(await keyword("React Server Components", "webapp")).toEqual([]);

    expectDatabase({
      pref: "active", dec1: "superseded", rule1: "active", pin: "active", idea: "active", proc: "active", fact: "active",
      context: "active", task: "active", trace1: "archived:decayed", epRecalled: "archived:decayed", epRepeated: "archived:decayed",
      squash: "active", retries: "archived:staged-stale", rule2: "active", tailwind: "active", dec2: "active",
      certificate: "archived:expired", e1: "active", e2: "active", rsc: "staged",
    });
  });

  it("month 4: two aging episodes became one memory that keeps the later repeat's clock", async () => {
    await liveThrough(17);
    await maintain();

    // Whichever run merged them (a background one in week 16, or ours), the originals point to it.
    const e1 = (await memory().get({ id: id("e1") })).memory;
    const e2 = (await memory().get({ id: id("e2") })).memory;
    expect(e1).toMatchObject({ status: MemoryStatus.ARCHIVED, archiveReason: "consolidated" });
    expect(e2).toMatchObject({ status: MemoryStatus.ARCHIVED, archiveReason: "consolidated", supersededBy: e1?.supersededBy });
    if (!ids.has("e1+e2")) remember("e1+e2", e1?.supersededBy);
    const mergedId = id("e1+e2");
    const merged = (await memory().get({ id: mergedId })).memory;
    expect(merged).toMatchObject({ status: MemoryStatus.ACTIVE, kind: MemoryKind.EPISODE, project: "webapp", content: `${NOTES.e1.content}\n${NOTES.e2.content}` });
    expect(timestampMs(merged?.createTime ?? timestampFromMs(0))).toBe(T0 + 10 * WEEK);
    // e1 was said again on day 84: 35 days ago the merge weighs 0.18. From day 70 it would be 0.09, archived.
    const events = (await memory().history({ id: mergedId })).events;
    expect(events.map((e) => [e.action, timestampMs(e.time ?? timestampFromMs(0))])).toEqual([
      ["created", expect.any(Number)],
      ["reinforced", T0 + 12 * WEEK],
    ]);
    expect(await recalled("build cache stale", "webapp")).toContain(mergedId);
    expect((await memory().sync({ project: "acme-api" })).reviewDue.map((m) => m.id).sort()).toEqual([id("rule1"), id("rule2")].sort());

    expectDatabase({
      pref: "active", dec1: "superseded", rule1: "active", pin: "active", idea: "active", proc: "active", fact: "active",
      context: "active", task: "archived:decayed", trace1: "archived:decayed", epRecalled: "archived:decayed",
      epRepeated: "archived:decayed", squash: "active", retries: "archived:staged-stale", rule2: "active", tailwind: "active",
      dec2: "superseded", certificate: "archived:expired", e1: "archived:consolidated", e2: "archived:consolidated",
      rsc: "archived:staged-stale", dec3: "active", "e1+e2": "active",
    });
  });

  it("month 6: what lasts is still recalled, what faded is archived, and every memory ever made is still in the file", async () => {
    await liveThrough(26);
    await maintain();

    expect(await ledger()).toMatchObject({
      active: 23, staged: 1, reinforced: 7, promoted: 3, episodes: 10,
      archived: 28, superseded: 2, consolidated: 2, expired: 1, decayed: 23, review: 2,
    });
    expect(await ledger("acme-api")).toMatchObject({
      active: 10, staged: 1, reinforced: 2, promoted: 1, episodes: 5,
      archived: 14, superseded: 2, consolidated: 0, expired: 1, decayed: 12, review: 1,
    });
    expect(await ledger("webapp")).toMatchObject({
      active: 10, staged: 0, reinforced: 4, promoted: 1, episodes: 5,
      archived: 14, superseded: 0, consolidated: 2, expired: 0, decayed: 11, review: 0,
    });
    const stats = await admin().stats({});
    const counts = (list: typeof stats.byKind) => Object.fromEntries(list.map((c) => [c.key, Number(c.count)]));
    expect(stats.total).toBe(BigInt(ids.size));
    expect(counts(stats.byStatus)).toEqual({ active: 23, staged: 1, superseded: 2, archived: 28 });
    expect(counts(stats.byProject)).toEqual({ "acme-api": 10, webapp: 10, global: 3 });
    expect(counts(stats.byKind)).toEqual({
      episode: 10, preference: 3, rule: 2, trace: 2, decision: 2, idea: 1, procedure: 1, fact: 1, context: 1,
    });

    // Long-lived and never-fading memories are still recalled half a year on.
    expect(await recalled("pnpm", "webapp")).toContain(id("pref"));
    expect(await recalled("offline mode service worker", "webapp")).toContain(id("idea"));
    expect(await recalled("staging database reset", "acme-api")).toContain(id("pin"));
    // Only the current claim answers; its history keeps both earlier ones.
    const auth = await recalled("authentication", "acme-api");
    expect(auth).toContain(id("dec3"));
    expect(auth).not.toContain(id("dec1"));
    expect(auth).not.toContain(id("dec2"));
    const chain = (await memory().history({ id: id("dec3") })).chain;
    expect(chain.map((m) => [m.id, m.status])).toEqual([
      [id("dec1"), MemoryStatus.SUPERSEDED],
      [id("dec2"), MemoryStatus.SUPERSEDED],
      [id("dec3"), MemoryStatus.ACTIVE],
    ]);
    expect(chain.map((m) => (m.invalidTime ? timestampMs(m.invalidTime) : null))).toEqual([T0 + 6 * WEEK, T0 + 15 * WEEK, null]);
    expect(await recalled("build cache stale", "webapp")).not.toContain(id("e1+e2"));
    expect(await keyword("HMAC", "acme-api")).toEqual([]);
    expect(await keyword("HMAC", "acme-api", [MemoryStatus.STAGED])).toEqual([id("hmac")]);
    // Rules never decay; both are now flagged for review instead.
    const due = [id("rule1"), id("rule2")].sort();
    expect((await memory().sync({ project: "acme-api" })).reviewDue.map((m) => m.id).sort()).toEqual(due);
    expect((await memory().list({ reviewDue: true })).memories.map((m) => m.id).sort()).toEqual(due);

    expectDatabase({
      pref: "active", dec1: "superseded", rule1: "active", pin: "active", idea: "active", proc: "active", fact: "active",
      context: "active", task: "archived:decayed", trace1: "archived:decayed", epRecalled: "archived:decayed",
      epRepeated: "archived:decayed", squash: "active", retries: "archived:staged-stale", rule2: "active", tailwind: "active",
      dec2: "superseded", certificate: "archived:expired", e1: "archived:consolidated", e2: "archived:consolidated",
      rsc: "archived:staged-stale", dec3: "active", "e1+e2": "archived:decayed",
      fastify: "active", hmac: "staged", trace2: "archived:decayed", trace3: "active",
    });
  });
});
