import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterEach, describe, expect, it } from "vitest";
import { ContradictionResolution, ContradictionSource, ContradictionStatus } from "../../gen/memd/v1/contradiction_pb.js";
import { MemoryKind, MemorySchema, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { BriefZone } from "../../gen/memd/v1/memory_service_pb.js";
import { REPO_ROOT } from "../helpers/daemon.js";
import { fakeClock, type InProcessDaemon, startInProcessDaemon } from "../helpers/in-process-daemon.js";
import { until } from "../helpers/until.js";

const NOW = Date.UTC(2026, 9, 14, 12);
const daemons: InProcessDaemon[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const d of daemons.splice(0)) await d.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<InProcessDaemon> {
  const clock = fakeClock(NOW);
  const daemon = await startInProcessDaemon({ clock });
  daemons.push(daemon);
  return daemon;
}

describe("contradictions caught on write (a real daemon on a real socket)", () => {
  it("names in Save's answer the active memory a new one contradicts, and queues the pair", async () => {
    const { clients } = await start();
    const clerk = await clients.memory.save({ content: "Auth is Clerk, not custom JWT.", kind: MemoryKind.DECISION, project: "acme" });
    const auth0 = await clients.memory.save({ content: "Auth moved to Auth0 last sprint; Clerk's pricing didn't work for us.", kind: MemoryKind.DECISION, project: "acme" });
    expect(auth0.contradictions).toHaveLength(1);
    const [found] = auth0.contradictions;
    expect(found).toMatchObject({ subject: "auth provider", newerSays: "Auth0", olderSays: "Clerk", source: ContradictionSource.SAVE, detector: "rules", status: ContradictionStatus.OPEN });
    expect(found?.other?.id).toBe(clerk.memory?.id);
    expect(found?.memory?.id).toBe(auth0.memory?.id);
    // Nothing was resolved: both still hold.
    expect((await clients.memory.get({ id: clerk.memory?.id ?? "" })).memory?.status).toBe(MemoryStatus.ACTIVE);

    const listed = await clients.contradictions.listContradictions({ project: "acme" });
    expect(listed.openCount).toBe(1);
    expect(listed.contradictions.map((c) => c.id)).toEqual([found?.id]);
    // Another project's queue does not show it.
    expect((await clients.contradictions.listContradictions({ project: "other" })).openCount).toBe(0);
  });

  it("says nothing when a save repeats or adds to what is stored", async () => {
    const { clients } = await start();
    await clients.memory.save({ content: "Postgres listens on 5432 in docker-compose.", project: "acme" });
    const same = await clients.memory.save({ content: "DATABASE_URL points at localhost:5432 for local development.", project: "acme" });
    const other = await clients.memory.save({ content: "Redis listens on 6379 in docker-compose.", project: "acme" });
    expect(same.contradictions).toEqual([]);
    expect(other.contradictions).toEqual([]);
    expect((await clients.contradictions.listContradictions({})).openCount).toBe(0);
  });

  it("settles a pair by keeping the newer memory: the older is superseded by it, and History shows the link", async () => {
    const { clients } = await start();
    const old = await clients.memory.save({ content: "The gRPC server listens on port 50051.", project: "acme" });
    const saved = await clients.memory.save({ content: "The gRPC port is 9090 in all environments now.", project: "acme" });
    const id = saved.contradictions[0]?.id ?? 0;
    const settled = await clients.contradictions.settleContradiction({ id, resolution: ContradictionResolution.KEPT_NEWER, sessionId: "s-1" });
    expect(settled.contradiction).toMatchObject({ status: ContradictionStatus.SETTLED, resolution: ContradictionResolution.KEPT_NEWER });
    expect(settled.superseded).toMatchObject({ id: old.memory?.id, status: MemoryStatus.SUPERSEDED, supersededBy: saved.memory?.id });
    const history = await clients.memory.history({ id: saved.memory?.id ?? "" });
    expect(history.chain.map((m) => m.id)).toEqual([old.memory?.id, saved.memory?.id]);
    expect(history.events.find((e) => e.action === "superseded")).toMatchObject({ memoryId: old.memory?.id, sessionId: "s-1" });
    expect(history.events.find((e) => e.action === "superseded")?.detail).toContain(`contradiction ${id} settled`);
    // The queue is empty, and the settled pair is listed only when asked for.
    expect((await clients.contradictions.listContradictions({})).openCount).toBe(0);
    expect((await clients.contradictions.listContradictions({ includeSettled: true })).contradictions.map((c) => c.id)).toEqual([id]);
    // Settling twice is refused, saying how it was settled.
    const again = await clients.contradictions.settleContradiction({ id, resolution: ContradictionResolution.KEPT_OLDER }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConnectError);
    expect((again as ConnectError).code).toBe(Code.FailedPrecondition);
    expect((again as ConnectError).rawMessage).toContain("already settled (kept newer)");
  });

  it("settles a pair by keeping the older memory, or both", async () => {
    const { clients } = await start();
    const old = await clients.memory.save({ content: "Payments go through Stripe.", project: "acme" });
    const newer = await clients.memory.save({ content: "Payments are processed by Adyen since the EU expansion.", project: "acme" });
    const kept = await clients.contradictions.settleContradiction({ id: newer.contradictions[0]?.id ?? 0, resolution: ContradictionResolution.KEPT_OLDER });
    expect(kept.superseded).toMatchObject({ id: newer.memory?.id, supersededBy: old.memory?.id });
    expect((await clients.memory.get({ id: old.memory?.id ?? "" })).memory).toMatchObject({ status: MemoryStatus.ACTIVE, supersedes: newer.memory?.id });

    await clients.memory.save({ content: "Error tracking is Sentry.", project: "acme" });
    const both = await clients.memory.save({ content: "We replaced Sentry with Rollbar for error tracking.", project: "acme" });
    const compatible = await clients.contradictions.settleContradiction({ id: both.contradictions[0]?.id ?? 0, resolution: ContradictionResolution.COMPATIBLE });
    expect(compatible.superseded).toBeUndefined();
    expect(compatible.contradiction?.memory?.status).toBe(MemoryStatus.ACTIVE);
    expect(compatible.contradiction?.other?.status).toBe(MemoryStatus.ACTIVE);
  });

  it("refuses to settle an unknown pair or without saying which memory holds", async () => {
    const { clients } = await start();
    const unknown = await clients.contradictions.settleContradiction({ id: 99, resolution: ContradictionResolution.KEPT_NEWER }).catch((e: unknown) => e);
    expect((unknown as ConnectError).code).toBe(Code.NotFound);
    const unsaid = await clients.contradictions.settleContradiction({ id: 1 }).catch((e: unknown) => e);
    expect((unsaid as ConnectError).code).toBe(Code.InvalidArgument);
    expect((unsaid as ConnectError).rawMessage).toContain("kept_newer, kept_older or compatible");
  });

  it("puts open contradictions in the briefing with how to settle them", async () => {
    const { clients } = await start();
    await clients.memory.save({ content: "The API server runs on Node 18.", project: "acme" });
    const newer = await clients.memory.save({ content: "api-server is on Node 20 since the upgrade in March.", project: "acme" });
    const brief = await clients.memory.brief({ project: "acme" });
    const item = brief.items.find((i) => i.zone === BriefZone.CONTRADICTION);
    expect(item?.memoryId).toBe(newer.memory?.id);
    expect(brief.text).toContain("Memories that contradict each other (ask the user which holds");
    expect(brief.text).toContain(`contradiction ${newer.contradictions[0]?.id} (node version)`);
  });

  it("names what a Checkpoint contradicts", async () => {
    const { clients } = await start();
    await clients.memory.save({ content: "The blog is hosted on Ghost.", project: "acme" });
    const episode = await clients.memory.checkpoint({ summary: "Moved the blog from Ghost to a static Hugo site.", project: "acme" });
    expect(episode.contradictions.map((c) => c.source)).toEqual([ContradictionSource.CHECKPOINT]);
  });

  it("names in Update's answer the active memory an edit of content now contradicts, the edited memory as the newer, and only once", async () => {
    const { clients } = await start();
    const errors = await clients.memory.save({ content: "Errors go to Sentry.", kind: MemoryKind.DECISION, project: "acme" });
    const clerk = await clients.memory.save({ content: "Auth is Clerk, not custom JWT.", kind: MemoryKind.DECISION, project: "acme" });
    const id = errors.memory?.id ?? "";
    const edited = await clients.memory.update({ id, content: "Auth moved to Auth0 last sprint; Clerk's pricing didn't work for us." });
    expect(edited.contradictions).toHaveLength(1);
    const [found] = edited.contradictions;
    expect(found).toMatchObject({ subject: "auth provider", newerSays: "Auth0", olderSays: "Clerk", source: ContradictionSource.UPDATE, detector: "rules", status: ContradictionStatus.OPEN });
    expect(found?.memory?.id).toBe(id);
    expect(found?.other?.id).toBe(clerk.memory?.id);
    expect(edited.memory?.status).toBe(MemoryStatus.ACTIVE);

    const again = await clients.memory.update({ id, content: "Auth moved to Auth0 last sprint." });
    expect(again.contradictions).toEqual([]);
    const listed = await clients.contradictions.listContradictions({ project: "acme" });
    expect(listed.contradictions.map((c) => c.id)).toEqual([found?.id]);
  });

  it("checks imported memories after the answer and queues what they contradict", async () => {
    const { clients } = await start();
    const stored = await clients.memory.save({ content: "Secrets are stored in HashiCorp Vault.", project: "acme" });
    const exported = await clients.memory.save({ content: "Secrets moved to AWS Secrets Manager.", project: "elsewhere" });
    const moved = create(MemorySchema, exported.memory);
    // Saved after the stored memory, so the newer of the pair, even when both were made in the same
    // millisecond (then the id decides, as a ULID's time would).
    moved.id = "01ZZZZZZZZZZZZZZZZZZZZZZZZ";
    moved.project = "acme";
    await clients.admin.import({ memories: [moved] });
    const listed = await until(() => clients.contradictions.listContradictions({ project: "acme" }), (res) => res.contradictions.length > 0);
    expect(listed.contradictions[0]).toMatchObject({ source: ContradictionSource.IMPORT });
    expect(listed.contradictions[0]?.memory?.id).toBe(moved.id);
    expect(listed.contradictions[0]?.other?.id).toBe(stored.memory?.id);
  });

  it("stages a swept preference that contradicts an active memory, with the pair queued", async () => {
    const { clients } = await start();
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "acme-api-"));
    dirs.push(workspace);
    const project = path.basename(workspace);
    const transcript = path.join(workspace, "session.jsonl");
    fs.copyFileSync(path.join(REPO_ROOT, "test/fixtures/transcripts/session-auth-refactor.jsonl"), transcript);
    const yarn = await clients.memory.save({ content: "We use yarn in this repo; run yarn install after pulling.", kind: MemoryKind.PREFERENCE, project });
    const res = await clients.capture.captureTranscript({ transcriptPath: transcript, sessionId: "sweep-1", cwd: workspace, trigger: "test", sourceAgent: "claude-code", wait: true });
    const pnpm = res.memories.find((m) => m.memory?.content.includes("pnpm") && m.memory.kind === MemoryKind.PREFERENCE);
    // What the user said is normally active at once; against an active memory it waits for a person.
    expect(pnpm?.memory?.status).toBe(MemoryStatus.STAGED);
    expect(pnpm?.contradictions.map((c) => [c.source, c.other?.id])).toEqual([[ContradictionSource.SWEEP, yarn.memory?.id]]);
    // Keeping the swept memory confirms it.
    const settled = await clients.contradictions.settleContradiction({ id: pnpm?.contradictions[0]?.id ?? 0, resolution: ContradictionResolution.KEPT_NEWER });
    expect(settled.contradiction?.memory?.status).toBe(MemoryStatus.ACTIVE);
    expect(settled.superseded?.id).toBe(yarn.memory?.id);
  });
});
