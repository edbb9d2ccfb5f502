// The vault against a real daemon on a temporary home: every memory a Markdown file, written
// through the durable outbox, and the database rebuilt from the files alone.
import fs from "node:fs";
import path from "node:path";
import { toJson } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { type Memory, MemoryKind, MemorySchema, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { makeHome, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const ALL = [MemoryStatus.ACTIVE, MemoryStatus.STAGED, MemoryStatus.ARCHIVED, MemoryStatus.SUPERSEDED];
const daemons: TestDaemon[] = [];
const homes: string[] = [];

afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.stop();
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

async function start(home: string, args: string[] = []): Promise<TestDaemon> {
  const daemon = await spawnDaemon({ home, args });
  daemons.push(daemon);
  return daemon;
}

function newHome(): string {
  const home = makeHome();
  homes.push(home);
  return home;
}

/** Every .md file under the vault, by path relative to it. */
function vaultFiles(vault: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!fs.existsSync(vault)) return files;
  for (const entry of fs.readdirSync(vault, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(".md")) {
      const file = path.join(entry.parentPath, entry.name);
      files.set(path.relative(vault, file), fs.readFileSync(file, "utf8"));
    }
  }
  return files;
}

/** Reads until `done` holds or 20 s pass, then returns the last reading for the assertions to judge. */
async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The file of a memory: the one whose frontmatter names its id. */
function fileOf(vault: string, id: string): [string, string] | undefined {
  return [...vaultFiles(vault)].find(([, text]) => text.includes(`\nid: ${id}\n`));
}

async function drained(daemon: TestDaemon): Promise<void> {
  const status = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.pending === 0n);
  expect(status.pending).toBe(0n);
}

async function exportAll(daemon: TestDaemon): Promise<Memory[]> {
  const out: Memory[] = [];
  for await (const res of daemon.clients.admin.export({})) if (res.memory) out.push(res.memory);
  return out;
}

describe("the vault", () => {
  it("writes each memory's file soon after the change, in folders per project and kind, and rewrites it only when it changed", async () => {
    const home = newHome();
    const daemon = await start(home);
    const vault = path.join(home, "vault");
    const saved = (await daemon.clients.memory.save({ content: "We deploy with Kamal, not Capistrano.", kind: MemoryKind.DECISION, project: "shop", concepts: ["deploy"] })).memory;
    const id = saved?.id ?? "";
    const [relative, text] = (await until(() => fileOf(vault, id), (found) => found !== undefined)) ?? ["", ""];
    expect(relative).toMatch(/^shop\/decision\/we-deploy-with-kamal-not-capistrano-[0-9a-z]{8}\.md$/);
    expect(text).toMatch(/^---\n/);
    expect(text).toContain("We deploy with Kamal, not Capistrano.");
    const file = path.join(vault, relative);
    const written = fs.statSync(file).mtimeMs;

    // Reads change nothing the file holds: it is not written again.
    await daemon.clients.memory.search({ query: "Kamal", project: "shop" });
    await daemon.clients.memory.get({ id });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.statSync(file).mtimeMs).toBe(written);

    await daemon.clients.memory.update({ id, concepts: { values: ["deploy", "kamal"] } });
    const updated = await until(() => fs.readFileSync(file, "utf8"), (t) => t.includes("kamal\n"));
    expect(updated).toMatch(/concepts:\n {2}- deploy\n {2}- kamal\n/);
    expect(updated).toMatch(/action: updated/);
    // The name stays when the content changes; the folder follows the kind.
    await daemon.clients.memory.update({ id, content: "We deploy with Kamal 2 now.", kind: MemoryKind.FACT });
    const moved = await until(() => fileOf(vault, id), (found) => found?.[0].startsWith("shop/fact/") === true);
    expect(moved?.[0]).toBe(relative.replace("/decision/", "/fact/"));
    expect(fs.existsSync(file)).toBe(false);
  });

  it("shows a correction as two files linked both ways, and every status", async () => {
    const home = newHome();
    const daemon = await start(home);
    const vault = path.join(home, "vault");
    const old = (await daemon.clients.memory.save({ content: "Postgres listens on 5432.", kind: MemoryKind.FACT, project: "shop" })).memory?.id ?? "";
    const next = (await daemon.clients.memory.supersede({ id: old, content: "Postgres listens on 5433 since the upgrade.", reason: "port moved" })).memory?.id ?? "";
    await drained(daemon);
    const [oldPath, oldText] = fileOf(vault, old) ?? ["", ""];
    const [newPath, newText] = fileOf(vault, next) ?? ["", ""];
    expect(oldText).toContain("status: superseded");
    expect(oldText).toContain(`superseded_by: ${next}`);
    expect(oldText).toContain(`superseded_by_link: "[[${path.basename(newPath, ".md")}]]"`);
    expect(newText).toContain(`supersedes_link: "[[${path.basename(oldPath, ".md")}]]"`);
    expect(oldText).toMatch(/action: superseded/);
  });

  it("comes back whole from the vault alone when the database is lost: every memory, status, link and history event", async () => {
    const home = newHome();
    const first = await start(home);
    const a = (await first.clients.memory.save({ content: "Use pnpm, never npm, in this repo.", kind: MemoryKind.PREFERENCE, project: "shop" })).memory?.id ?? "";
    await first.clients.memory.save({ content: "Checkout totals are computed server-side.", kind: MemoryKind.DECISION, project: "shop", problem: "totals drifted", solution: "server computes" });
    const b = (await first.clients.memory.save({ content: "The staging box is stg-3.", kind: MemoryKind.FACT, project: "ops" })).memory?.id ?? "";
    await first.clients.memory.supersede({ id: b, content: "The staging box is stg-4.", reason: "replaced" });
    await first.clients.memory.archive({ id: a, reason: "moved to the handbook" });
    await drained(first);
    const before = await exportAll(first);
    const history = await first.clients.memory.history({ id: b });
    await first.stop();
    daemons.splice(daemons.indexOf(first), 1);
    for (const name of fs.readdirSync(home)) if (name.startsWith("memd.db")) fs.rmSync(path.join(home, name));

    const second = await start(home);
    const after = await until(() => exportAll(second), (memories) => memories.length === before.length);
    // Usage counters are not in the files (they would change on every read): they start again.
    const comparable = (m: Memory) => ({ ...(toJson(MemorySchema, m) as object), accessCount: undefined, lastAccessTime: undefined });
    expect(after.map(comparable)).toEqual(before.map(comparable));
    expect((await second.clients.memory.history({ id: b })).events.length).toBe(history.events.length);
    expect((await second.clients.memory.list({ project: "shop", statuses: ALL })).memories.length).toBe(2);
  });

  it("rebuilds on request, redacting a secret typed into a file, and reports a broken file with its line without touching it", async () => {
    const home = newHome();
    const daemon = await start(home);
    const vault = path.join(home, "vault");
    const id = (await daemon.clients.memory.save({ content: "The CI deploy key lives in 1Password.", kind: MemoryKind.FACT, project: "shop" })).memory?.id ?? "";
    await drained(daemon);
    const [relative, text] = fileOf(vault, id) ?? ["", ""];
    await daemon.stop();
    daemons.pop();
    fs.writeFileSync(path.join(vault, relative), text.replace("lives in 1Password.", "is AKIAIOSFODNN7EXAMPLE, kept in 1Password."));
    const broken = path.join(vault, "shop", "fact", "broken.md");
    const brokenText = "---\nid: 01JD8X4M2Q9W7E5R3T1Y6V8K0P\nkind: [unclosed\n---\nbody\n";
    fs.writeFileSync(broken, brokenText);

    const again = await start(home);
    const res = await again.clients.vault.rebuildFromVault({});
    expect(res.updated).toBe(1n);
    expect(res.problems).toEqual([expect.objectContaining({ path: "shop/fact/broken.md", line: 3 })]);
    expect(fs.readFileSync(broken, "utf8")).toBe(brokenText);
    const stored = (await again.clients.memory.get({ id })).memory?.content ?? "";
    expect(stored).not.toContain("AKIAIOSFODNN7EXAMPLE");
    await drained(again);
    expect(fileOf(vault, id)?.[1]).not.toContain("AKIAIOSFODNN7EXAMPLE");
    // Twice changes nothing the second time.
    expect((await again.clients.vault.rebuildFromVault({})).unchanged).toBe(1n);
  });

  it("catches up on a file whose write was cut off by kill -9: the change was queued with it", async () => {
    const home = newHome();
    const vault = path.join(home, "vault");
    // A file where the project's folder must go: every write for it fails, and stays queued.
    fs.mkdirSync(vault, { recursive: true });
    fs.writeFileSync(path.join(vault, "shop"), "in the way");
    const first = await start(home);
    const id = (await first.clients.memory.save({ content: "Feature flags live in flags.yaml.", kind: MemoryKind.FACT, project: "shop" })).memory?.id ?? "";
    const status = await until(() => first.clients.vault.getVaultStatus({}), (s) => s.lastError !== "");
    expect(status).toMatchObject({ pending: 1n, lastError: expect.stringContaining(id) });
    await first.kill();
    daemons.pop();
    fs.rmSync(path.join(vault, "shop"));
    const second = await start(home);
    await drained(second);
    expect(fileOf(vault, id)?.[1]).toContain("Feature flags live in flags.yaml.");
  });

  it("leaves a file someone changed alone, and says so in the status", async () => {
    const home = newHome();
    const daemon = await start(home);
    const vault = path.join(home, "vault");
    const id = (await daemon.clients.memory.save({ content: "Logs go to Loki.", kind: MemoryKind.FACT, project: "ops" })).memory?.id ?? "";
    await drained(daemon);
    const [relative, text] = fileOf(vault, id) ?? ["", ""];
    const edited = text.replace("Logs go to Loki.", "Logs go to Loki, kept 30 days.");
    fs.writeFileSync(path.join(vault, relative), edited);
    await daemon.clients.memory.update({ id, concepts: { values: ["logging"] } });
    const status = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.held.length > 0);
    expect(status.held).toEqual([expect.objectContaining({ path: relative, reason: expect.stringContaining("changed outside memd") })]);
    expect(fs.readFileSync(path.join(vault, relative), "utf8")).toBe(edited);
  });

  it("writes an import's files in steps, counting down in the status, and keeps none with --no-vault", async () => {
    const home = newHome();
    const daemon = await start(home);
    const stamp = { seconds: 1_764_000_000n, nanos: 0 };
    const memories = Array.from({ length: 600 }, (_, i) => ({
      id: `01JD8X4M2Q9W7E5R3T${String(i).padStart(8, "0")}`.slice(0, 26),
      content: `Imported fact number ${i} about the billing service.`,
      kind: MemoryKind.FACT,
      project: "billing",
      status: MemoryStatus.ACTIVE,
      confidence: 0.9,
      importance: 3,
      createTime: stamp,
      updateTime: stamp,
    }));
    await daemon.clients.admin.import({ memories: memories.slice(0, 300) });
    await daemon.clients.admin.import({ memories: memories.slice(300) });
    await drained(daemon);
    expect((await daemon.clients.vault.getVaultStatus({})).files).toBe(600n);
    expect(vaultFiles(path.join(home, "vault")).size).toBe(600);

    const off = newHome();
    const bare = await start(off, ["--no-vault"]);
    await bare.clients.memory.save({ content: "Nothing to write.", kind: MemoryKind.FACT, project: "x" });
    expect(await bare.clients.vault.getVaultStatus({})).toMatchObject({ enabled: false });
    expect(fs.existsSync(path.join(off, "vault"))).toBe(false);
  });
});
