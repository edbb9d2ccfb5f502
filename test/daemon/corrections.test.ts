import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStatus, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import { removeDaemon, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { refusalCode } from "../helpers/refusal.js";

let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await spawnDaemon();
});
afterAll(() => removeDaemon(daemon));


async function total(): Promise<bigint> {
  return (await daemon.clients.admin.stats({})).total;
}

describe("corrections without overwriting", () => {
  it("supersedes a claim: the new one is current, the old one keeps its text and when it stopped holding", async () => {
    const { memory: old } = await daemon.clients.memory.save({ content: "Secrets live in SSM Parameter Store", project: "infra", concepts: ["secrets"] });
    const res = await daemon.clients.memory.supersede({ id: old?.id ?? "", content: "Secrets moved to AWS Secrets Manager", reason: "migrated in Q3" });
    expect(res.memory).toMatchObject({ supersedes: old?.id, status: MemoryStatus.ACTIVE, concepts: ["secrets"], project: "infra" });
    expect(res.superseded).toMatchObject({ content: "Secrets live in SSM Parameter Store", status: MemoryStatus.SUPERSEDED, supersededBy: res.memory?.id });
    expect(res.superseded?.invalidTime).toBeDefined();

    const found = await daemon.clients.memory.search({ query: "secrets", project: "infra", mode: SearchMode.HYBRID });
    expect(found.results.map((r) => r.memory?.id)).toEqual([res.memory?.id]);

    const history = await daemon.clients.memory.history({ id: res.memory?.id ?? "" });
    expect(history.chain.map((m) => m.id)).toEqual([old?.id, res.memory?.id]);
    expect(history.events.map((e) => e.action)).toEqual(["created", "superseded", "created"]);
    expect(history.events[1]?.detail).toBe("migrated in Q3");
  });

  it("keeps the previous content in the history when a memory is updated", async () => {
    const { memory } = await daemon.clients.memory.save({ content: "Postgres runs on 5432", project: "infra" });
    await daemon.clients.memory.update({ id: memory?.id ?? "", content: "Postgres runs on 5433" });
    const history = await daemon.clients.memory.history({ id: memory?.id ?? "" });
    const updated = history.events.find((e) => e.action === "updated");
    expect(JSON.parse(updated?.detail ?? "{}")).toMatchObject({ content: "Postgres runs on 5432" });
  });

  it("refuses to supersede an unknown or an already superseded memory and changes nothing", async () => {
    const { memory: a } = await daemon.clients.memory.save({ content: "CI runs on Jenkins", project: "infra" });
    await daemon.clients.memory.supersede({ id: a?.id ?? "", content: "CI runs on GitHub Actions" });
    const before = await total();
    expect(await refusalCode(daemon.clients.memory.supersede({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV", content: "x" }))).toBe(Code.NotFound);
    expect(await refusalCode(daemon.clients.memory.supersede({ id: a?.id ?? "", content: "CI runs on Buildkite" }))).toBe(Code.FailedPrecondition);
    expect(await refusalCode(daemon.clients.memory.supersede({ id: a?.id ?? "", content: "" }))).toBe(Code.FailedPrecondition);
    expect(await total()).toBe(before);
  });
});

describe("restoring an archived memory", () => {
  it("makes it active and searchable again, with the archive and the restore in its history", async () => {
    const { memory } = await daemon.clients.memory.save({ content: "Nightly backups go to the Hetzner storage box", project: "ops", concepts: ["backups"] });
    const id = memory?.id ?? "";
    await daemon.clients.memory.archive({ id, reason: "moved to S3" });
    expect((await daemon.clients.memory.search({ query: "Hetzner storage box", project: "ops" })).results).toEqual([]);
    const cli = await runCli(daemon.home, ["restore", id]);
    expect(cli.stdout.trim()).toBe(`restored ${id}`);
    expect((await daemon.clients.memory.get({ id })).memory).toMatchObject({ status: MemoryStatus.ACTIVE, archiveReason: "" });
    expect((await daemon.clients.memory.search({ query: "Hetzner storage box", project: "ops" })).results.map((r) => r.memory?.id)).toEqual([id]);
    const events = (await daemon.clients.memory.history({ id })).events;
    expect(events.map((e) => e.action)).toEqual(["created", "archived", "updated"]);
    expect(JSON.parse(events[2]?.detail ?? "{}")).toEqual({ by: "a person", changed: ["status"], replaced: { status: "archived", archiveReason: "moved to S3" } });
  });

  it("refuses a memory that is not archived, and an unknown one, changing nothing", async () => {
    const { memory } = await daemon.clients.memory.save({ content: "Deploys happen on weekdays only", project: "ops" });
    expect(await refusalCode(daemon.clients.memory.restore({ id: memory?.id ?? "" }))).toBe(Code.FailedPrecondition);
    expect(await refusalCode(daemon.clients.memory.restore({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }))).toBe(Code.NotFound);
    expect((await daemon.clients.memory.history({ id: memory?.id ?? "" })).events.map((e) => e.action)).toEqual(["created"]);
  });
});

describe("the promotion gate, by hand", () => {
  it("stages what was inferred, and a person can promote or reject it", async () => {
    const { memory: guess } = await daemon.clients.memory.save({ content: "User seems to prefer squash merges", project: "global", provenance: Provenance.DISTILLED });
    expect(guess?.status).toBe(MemoryStatus.STAGED);
    const normal = await daemon.clients.memory.search({ query: "squash merges", project: "global", mode: SearchMode.HYBRID });
    expect(normal.results).toEqual([]);
    const staged = await runCli(daemon.home, ["staged"]);
    expect(staged.stdout).toContain(guess?.id);

    const promoted = await daemon.clients.memory.promote({ id: guess?.id ?? "" });
    expect(promoted.memory).toMatchObject({ status: MemoryStatus.ACTIVE, confidence: 0.5 });
    expect(await refusalCode(daemon.clients.memory.promote({ id: guess?.id ?? "" }))).toBe(Code.FailedPrecondition);

    const { memory: wrong } = await daemon.clients.memory.save({ content: "User likes tabs", project: "global", provenance: Provenance.DISTILLED });
    const rejected = await runCli(daemon.home, ["reject", wrong?.id ?? "", "--reason", "user said spaces"]);
    expect(rejected.stdout).toContain("rejected");
    const got = await daemon.clients.memory.get({ id: wrong?.id ?? "" });
    expect(got.memory).toMatchObject({ status: MemoryStatus.ARCHIVED, archiveReason: "user said spaces" });
  });

  it("shows the whole chain with memctl history", async () => {
    const { memory: old } = await daemon.clients.memory.save({ content: "Deploys use Jenkins", project: "ops" });
    const out = await runCli(daemon.home, ["supersede", old?.id ?? "", "--content", "Deploys use Argo CD", "--reason", "moved"]);
    expect(out.code).toBe(0);
    const history = await runCli(daemon.home, ["history", old?.id ?? ""]);
    expect(history.stdout).toMatch(/\.\. 20\d\d-[^\n]*\n  Deploys use Jenkins/);
    expect(history.stdout).toMatch(/\.\. now [^\n]*\n  Deploys use Argo CD/);
    expect(history.stdout).toContain("superseded");
  });
});

describe("dedup on write", () => {
  it("merges an exact repeat into the existing memory and says so", async () => {
    const first = await daemon.clients.memory.save({ content: "Run make migrate-up before the tests", project: "dedup", kind: 4, concepts: ["migrations"], sessionId: "s1" });
    const before = await total();
    const again = await daemon.clients.memory.save({ content: "run  make migrate-up before the tests!", project: "dedup", kind: 4, files: ["Makefile"], sessionId: "s2" });
    expect(again.mergedInto).toBe(first.memory?.id);
    expect(again.memory).toMatchObject({ id: first.memory?.id, concepts: ["migrations"], files: ["Makefile"] });
    expect(await total()).toBe(before);
    const history = await daemon.clients.memory.history({ id: first.memory?.id ?? "" });
    expect(history.events.map((e) => [e.action, e.sessionId])).toEqual([["created", "s1"], ["reinforced", "s2"]]);
  });

  it("promotes a staged guess when another session states the same thing, but not the same session", async () => {
    const guess = await daemon.clients.memory.save({ content: "Prefers rebase over merge", project: "global", kind: 3, provenance: Provenance.DISTILLED, sessionId: "a" });
    const same = await daemon.clients.memory.save({ content: "Prefers rebase over merge", project: "global", kind: 3, provenance: Provenance.DISTILLED, sessionId: "a" });
    expect(same.mergedInto).toBe(guess.memory?.id);
    expect(same.memory?.status).toBe(MemoryStatus.STAGED);
    const other = await daemon.clients.memory.save({ content: "Prefers rebase over merge", project: "global", kind: 3, provenance: Provenance.DISTILLED, sessionId: "b" });
    expect(other.memory?.status).toBe(MemoryStatus.ACTIVE);
  });
});
