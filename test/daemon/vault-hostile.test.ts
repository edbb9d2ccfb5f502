// Hostile files and links planted in the vault of a real daemon: memd never reads or writes
// through a link in its vault, refuses a file it cannot handle once and says so, never loops on
// one, and cleans up after a crash only what is its own.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryKind, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import { makeHome, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { until } from "../helpers/until.js";
import { aliasBomb, folderState, HOSTILE_VAULT_FILES, OUTSIDE_NOTE, plantOutside } from "../hostile/hostile-vault-files.js";

const daemons: TestDaemon[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const daemon of daemons.splice(0)) if (daemon.process.exitCode === null) await daemon.stop();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A home with a vault, and a folder beside it (outside the vault) holding notes links may point to. */
function setUp(): { home: string; vault: string; outside: string } {
  const home = makeHome();
  dirs.push(home);
  const outside = path.join(home, "outside");
  plantOutside(outside);
  return { home, vault: path.join(home, "vault"), outside };
}

async function start(home: string, args: string[] = []): Promise<TestDaemon> {
  const daemon = await spawnDaemon({ home, args });
  daemons.push(daemon);
  return daemon;
}

async function drained(daemon: TestDaemon) {
  return until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.pending === 0n);
}

/** Saves a memory and waits for its file: everything the watcher and writer had to do before is done by then. */
async function saveAndWaitForFile(daemon: TestDaemon, vault: string, content: string, project = "ops"): Promise<string> {
  const id = (await daemon.clients.memory.save({ content, kind: MemoryKind.FACT, project })).memory?.id ?? "";
  const file = await until(() => findFile(vault, id), (f) => f !== undefined);
  expect(file, `the file of ${content}`).toBeDefined();
  return id;
}

/**
 * Writes a new file by hand and waits until memd has read it and written its id into it: events
 * the watcher saw before it (a link planted first) were handled by then, and their writes made.
 */
async function handWriteAndWaitForId(vault: string, relative: string, content: string): Promise<void> {
  const file = path.join(vault, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `---\n---\n${content}\n`);
  expect(await until(() => fs.readFileSync(file, "utf8"), (text) => text.includes("\nid: "))).toContain("\nid: ");
}

function findFile(vault: string, id: string): string | undefined {
  for (const entry of fs.readdirSync(vault, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".md")) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.readFileSync(file, "utf8").includes(`\nid: ${id}\n`)) return file;
  }
  return undefined;
}

function logLines(home: string, needle: string): string[] {
  const log = path.join(home, "logs", "memd.log");
  return fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter((line) => line.includes(needle)) : [];
}

/** Imports `count` facts of the billing project, a thousand a call: enough to keep the vault writer busy for a while. */
async function importFacts(daemon: TestDaemon, count: number): Promise<void> {
  const stamp = { seconds: 1_764_000_000n, nanos: 0 };
  const memories = Array.from({ length: count }, (_, i) => ({
    id: `01JD8X4M2Q9W7E5R3T${String(i).padStart(8, "0")}`,
    content: `Imported fact number ${i} about the billing service.`, kind: MemoryKind.FACT, project: "billing",
    status: MemoryStatus.ACTIVE, confidence: 0.9, importance: 3, createTime: stamp, updateTime: stamp,
  }));
  for (let at = 0; at < count; at += 1000) await daemon.clients.admin.import({ memories: memories.slice(at, at + 1000) });
}

async function allContents(daemon: TestDaemon): Promise<string[]> {
  const statuses = [MemoryStatus.ACTIVE, MemoryStatus.STAGED, MemoryStatus.ARCHIVED, MemoryStatus.SUPERSEDED];
  return (await daemon.clients.memory.list({ statuses, pageSize: 1000 })).memories.map((m) => m.content);
}

describe("links in the vault", () => {
  it("never reads or rewrites a note outside the vault through a link to it or to its folder, and lists the links", async () => {
    const { home, vault, outside } = setUp();
    const daemon = await start(home);
    await saveAndWaitForFile(daemon, vault, "The shop's catalogue is rebuilt nightly.", "shop");
    const before = folderState(outside);
    fs.symlinkSync(path.join(outside, "offsite.md"), path.join(vault, "shop", "fact", "offsite.md"));
    fs.mkdirSync(path.join(vault, "blog"));
    fs.symlinkSync(path.join(outside, "notes"), path.join(vault, "blog", "fact"));
    // Later work done first, then the checks: what memd would have read or written by now, it has.
    await handWriteAndWaitForId(vault, "shop/fact/later.md", "Payments retry three times.");
    expect(folderState(outside)).toEqual(before);
    expect((await allContents(daemon)).filter((c) => c.includes("standup"))).toEqual([]);
    const status = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.links.length === 2);
    expect(status.links).toEqual([
      expect.objectContaining({ path: "shop/fact/offsite.md", reason: expect.stringContaining(`a symbolic link to ${path.join(outside, "offsite.md")}`) }),
      expect.objectContaining({ path: "blog/fact", reason: expect.stringContaining(path.join(outside, "notes")) }),
    ]);
    // A note edited behind the link, and a new one in the linked folder: still nothing is read.
    fs.appendFileSync(path.join(outside, "offsite.md"), "Edited.\n");
    fs.writeFileSync(path.join(outside, "notes", "new.md"), OUTSIDE_NOTE);
    const after = folderState(outside);
    await handWriteAndWaitForId(vault, "shop/fact/later-still.md", "Refunds take five days.");
    expect(folderState(outside)).toEqual(after);
    expect((await allContents(daemon)).filter((c) => c.includes("standup"))).toEqual([]);
    const listed = await runCli(home, ["vault", "status"]);
    expect(listed.stdout).toContain(`link left alone: shop/fact/offsite.md: a symbolic link to ${path.join(outside, "offsite.md")}`);
  });

  it("stops listing a link once it is gone, or a real file or folder took its place", async () => {
    const { home, vault, outside } = setUp();
    const daemon = await start(home);
    await saveAndWaitForFile(daemon, vault, "The shop's search runs on Meilisearch.", "shop");
    const planted = ["shop/fact/offsite.md", "shop/fact/gone.md", "blog/fact"];
    fs.symlinkSync(path.join(outside, "offsite.md"), path.join(vault, "shop", "fact", "offsite.md"));
    fs.symlinkSync(path.join(outside, "offsite.md"), path.join(vault, "shop", "fact", "gone.md"));
    fs.mkdirSync(path.join(vault, "blog"));
    fs.symlinkSync(path.join(outside, "notes"), path.join(vault, "blog", "fact"));
    const listed = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.links.length === planted.length);
    expect(listed.links.map((l) => l.path).sort()).toEqual([...planted].sort());
    // A git checkout replaces each link at once: the link goes and a file or folder is there before memd looks.
    fs.rmSync(path.join(vault, "shop", "fact", "gone.md"));
    fs.rmSync(path.join(vault, "shop", "fact", "offsite.md"));
    fs.writeFileSync(path.join(vault, "shop", "fact", "offsite.md"), "---\n---\nThe offsite moved to March.\n");
    fs.rmSync(path.join(vault, "blog", "fact"));
    fs.mkdirSync(path.join(vault, "blog", "fact"));
    fs.writeFileSync(path.join(vault, "blog", "fact", "post.md"), "---\n---\nThe blog is built with Astro.\n");
    await handWriteAndWaitForId(vault, "shop/fact/later.md", "Orders over 500 EUR need a second look.");
    const status = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.links.length === 0);
    expect(status.links).toEqual([]);
    const contents = await allContents(daemon);
    expect(contents).toEqual(expect.arrayContaining(["The offsite moved to March.", "The blog is built with Astro."]));
  });

  it("writes no memory into a folder outside the vault through a linked kind or project folder, lists it as not written, and writes it once the link is gone", async () => {
    const { home, vault, outside } = setUp();
    const daemon = await start(home);
    await saveAndWaitForFile(daemon, vault, "The release train leaves on Tuesdays.", "shop");
    fs.symlinkSync(path.join(outside, "fact"), path.join(vault, "shop", "decision"));
    const before = folderState(outside);
    const id = (await daemon.clients.memory.save({ content: "We price in cents, never floats.", kind: MemoryKind.DECISION, project: "shop" })).memory?.id ?? "";
    await saveAndWaitForFile(daemon, vault, "Staging resets nightly.", "ops");
    expect(folderState(outside)).toEqual(before);
    const status = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.failing.length > 0);
    expect(status.failing).toEqual([expect.objectContaining({ reason: expect.stringMatching(/shop\/decision is a symbolic link.*failed \d+ times?; tried again in \d+ s/) })]);
    fs.rmSync(path.join(vault, "shop", "decision"));
    // Tried again after its wait (a second), into the folder memd now makes itself.
    const file = await until(() => findFile(vault, id), (f) => f !== undefined);
    expect(file).toBe(path.join(vault, "shop", "decision", path.basename(file ?? "")));
    expect((await drained(daemon)).failing).toEqual([]);
    expect(folderState(outside)).toEqual(before);
  });

  it("reads no link at start-up or in a rebuild, and removes no file outside the vault through a linked folder when a memory is purged", async () => {
    const { home, vault, outside } = setUp();
    const first = await start(home);
    const kept = await saveAndWaitForFile(first, vault, "Invoices are numbered per tenant.", "shop");
    const purged = await saveAndWaitForFile(first, vault, "The old VAT rule was 19 percent.", "shop");
    await first.clients.memory.archive({ id: purged, reason: "replaced" });
    await drained(first);
    await first.stop();
    // While memd is down, shop/fact becomes a link to a copy of itself outside the vault.
    fs.cpSync(path.join(vault, "shop", "fact"), path.join(outside, "shop-fact"), { recursive: true });
    fs.rmSync(path.join(vault, "shop", "fact"), { recursive: true });
    fs.symlinkSync(path.join(outside, "shop-fact"), path.join(vault, "shop", "fact"));
    fs.symlinkSync(path.join(outside, "offsite.md"), path.join(vault, "shop", "decision.md"));
    const before = folderState(outside);
    const second = await start(home);
    expect((await second.clients.admin.purge({ confirm: "delete archived memories" })).deleted).toBe(1n);
    // The file thread works in order: a write sent after the purge's removal was sent finds it done.
    await saveAndWaitForFile(second, vault, "Ops pages go to the on-call phone.");
    await saveAndWaitForFile(second, vault, "Ops rotate the pager weekly.");
    expect(folderState(outside)).toEqual(before);
    const status = await until(() => second.clients.vault.getVaultStatus({}), (s) => s.links.some((l) => l.path === "shop/fact"));
    expect(status.links.map((l) => l.path)).toEqual(["shop/fact"]);
    // Not archived as deleted: the files are behind a link, not gone.
    expect((await second.clients.memory.get({ id: kept })).memory?.status).toBe(MemoryStatus.ACTIVE);
    const rebuilt = await second.clients.vault.rebuildFromVault({});
    expect(rebuilt.problems).toEqual([expect.objectContaining({ path: "shop/fact", reason: expect.stringContaining("symbolic link") })]);
    expect(rebuilt.files).toBe(2n);
    expect(folderState(outside)).toEqual(before);
  });
});

describe("hostile YAML and files memd cannot handle", () => {
  it("refuses a YAML alias bomb once, never makes it a memory, and does not loop on it", async () => {
    const { home, vault } = setUp();
    const daemon = await start(home);
    await saveAndWaitForFile(daemon, vault, "Backups run at 03:00.", "shop");
    const bomb = path.join(vault, "shop", "fact", "bomb.md");
    fs.writeFileSync(bomb, `---\n${aliasBomb(10)}---\nboom\n`);
    const status = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.unreadable.length > 0);
    expect(status.unreadable).toEqual([expect.objectContaining({ path: "shop/fact/bomb.md", line: 3, reason: expect.stringContaining("YAML alias bomb") })]);
    // Later work done, then the count: one report, no memory, nothing written over it.
    for (let i = 0; i < 3; i++) await saveAndWaitForFile(daemon, vault, `Later fact ${i} about the shop.`, "shop");
    expect(logLines(home, "shop/fact/bomb.md")).toHaveLength(1);
    expect(logLines(home, "cannot write")).toEqual([]);
    expect((await daemon.clients.memory.search({ query: "boom", allProjects: true, mode: SearchMode.KEYWORD })).results).toEqual([]);
    expect(fs.readFileSync(bomb, "utf8")).toBe(`---\n${aliasBomb(10)}---\nboom\n`);
    expect((await daemon.clients.vault.getVaultStatus({})).failing).toEqual([]);
  });

  it("tries a file that keeps failing again after a growing wait, with one warning, while the other files are written", async () => {
    const { home, vault } = setUp();
    fs.mkdirSync(vault, { recursive: true });
    // A file where a project's folder must go: every write of its memories fails.
    fs.writeFileSync(path.join(vault, "shop"), "in the way");
    const daemon = await start(home);
    await daemon.clients.memory.save({ content: "Refunds need a manager's approval.", kind: MemoryKind.FACT, project: "shop" });
    const retried = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => /failed 3 times/.test(s.failing[0]?.reason ?? ""), 30_000);
    expect(retried.failing).toEqual([expect.objectContaining({ reason: expect.stringMatching(/is a file where memd keeps a folder.*failed 3 times; tried again in \d+ s/) })]);
    for (let i = 0; i < 3; i++) await saveAndWaitForFile(daemon, vault, `Ops fact ${i}.`);
    expect(logLines(home, "cannot write the memory's vault file")).toHaveLength(1);
    expect((await daemon.clients.vault.getVaultStatus({})).pending).toBe(1n);
  });

  it("waits longer each time it finds the database locked by another process while it records files, and records them once the lock is gone", async () => {
    const { home } = setUp();
    const daemon = await start(home);
    await importFacts(daemon, 4000);
    const outside = new Database(path.join(home, "memd.db"));
    try {
      outside.exec("BEGIN IMMEDIATE");
      const locked = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => /locked 3 times in a row; tried again in 4 s/.test(s.lastError), 30_000);
      expect(locked.lastError).toMatch(/locked 3 times in a row; tried again in 4 s/);
      expect(locked.pending).toBeGreaterThan(0n);
      outside.exec("COMMIT");
    } finally {
      if (outside.inTransaction) outside.exec("ROLLBACK");
      outside.close();
    }
    expect(await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.pending === 0n && s.lastError === "", 60_000)).toMatchObject({ pending: 0n, files: 4000n, lastError: "" });
  }, 120_000);

  it("stays up through every hostile file of the catalogue at once, reads none of them through a link, and reports each", async () => {
    const { home, vault, outside } = setUp();
    const daemon = await start(home);
    await saveAndWaitForFile(daemon, vault, "The shop runs on Postgres 16.", "shop");
    const before = folderState(outside);
    for (const hostile of HOSTILE_VAULT_FILES) hostile.plant(vault, outside);
    const expected = (kind: "link" | "unreadable") => HOSTILE_VAULT_FILES.filter((h) => h.reported === kind).map((h) => h.path).sort();
    const status = await until(
      () => daemon.clients.vault.getVaultStatus({}),
      (s) => s.links.length === expected("link").length && s.unreadable.length === expected("unreadable").length,
      60_000,
    );
    expect(status.links.map((l) => l.path).sort()).toEqual(expected("link"));
    expect(status.unreadable.map((u) => u.path).sort()).toEqual(expected("unreadable"));
    await saveAndWaitForFile(daemon, vault, "Ops still answer after all that.");
    expect((await daemon.clients.admin.health({})).health?.pid).toBeGreaterThan(0);
    expect(folderState(outside)).toEqual(before);
    const contents = await allContents(daemon);
    expect(contents.filter((c) => /standup|boom|IdentityFile/.test(c))).toEqual([]);
    expect((await drained(daemon)).failing).toEqual([]);
  }, 120_000);
});

describe("after a crash, and a person's own properties", () => {
  it("removes the temporary files of writes cut off by kill -9 when it starts again, and only memd's own", async () => {
    const { home, vault, outside } = setUp();
    const first = await start(home);
    await importFacts(first, 2000);
    await until(() => first.clients.vault.getVaultStatus({}), (s) => s.files > 0n);
    await first.kill();
    // What a crash may leave, and what is not memd's: a person's dot-file, a temporary-looking
    // file outside memd's folders, and a link with a temporary file's name.
    const folder = path.join(vault, "billing", "fact");
    const stale = [".a.md.memd-0123456789ab.tmp", ".b.md.memd-abcdef012345.tmp"];
    for (const name of stale) fs.writeFileSync(path.join(folder, name), "half a file");
    fs.writeFileSync(path.join(folder, ".keep"), "");
    fs.mkdirSync(path.join(vault, "notes"));
    fs.writeFileSync(path.join(vault, "notes", ".c.md.memd-0123456789ab.tmp"), "mine");
    fs.symlinkSync(path.join(outside, "offsite.md"), path.join(folder, ".d.md.memd-0123456789ab.tmp"));
    const second = await start(home);
    await drained(second);
    expect(fs.readdirSync(folder).filter((name) => name.startsWith(".")).sort()).toEqual([".d.md.memd-0123456789ab.tmp", ".keep"]);
    expect(fs.readFileSync(path.join(vault, "notes", ".c.md.memd-0123456789ab.tmp"), "utf8")).toBe("mine");
    expect(fs.readFileSync(path.join(outside, "offsite.md"), "utf8")).toBe(OUTSIDE_NOTE);
    expect(logLines(home, "removed temporary files of vault writes cut off by a crash")).toHaveLength(1);
  });

  it("redacts a secret in a person's own frontmatter properties when it rewrites the file", async () => {
    const { home, vault } = setUp();
    const daemon = await start(home);
    const id = await saveAndWaitForFile(daemon, vault, "Deploys go through the bastion.", "ops");
    await drained(daemon);
    const file = findFile(vault, id) ?? "";
    const text = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, text.replace("---\n", "---\naliases:\n  - bastion awsAKIAZXCVBNMASDFGHJK9\nnotes: \"mypassword=hunter2xyz\"\n"));
    const rewritten = await until(() => fs.readFileSync(file, "utf8"), (t) => !t.includes("hunter2xyz") && t.includes("notes:"));
    expect(rewritten).toContain("  - bastion aws[REDACTED:aws-access-key]\n");
    expect(rewritten).toContain("notes: mypassword=[REDACTED:password-assignment]\n");
    expect(rewritten).not.toContain("AKIAZXCVBNMASDFGHJK9");
  });
});
