// The vault against a real daemon on a temporary home: every memory a Markdown file, written
// through the durable outbox, and the database rebuilt from the files alone.
import fs from "node:fs";
import path from "node:path";
import { toJson } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { ContradictionSource } from "../../gen/memd/v1/contradiction_pb.js";
import { type Memory, MemoryKind, MemorySchema, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import { readTextIfExists } from "../../daemon/src/memory-files/markdown-files.js";
import { makeHome, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { until } from "../helpers/until.js";

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
      // memd may remove a file between the listing and the read (a moved memory's old file): it is gone, not an error.
      const text = readTextIfExists(file);
      if (text !== null) files.set(path.relative(vault, file), text);
    }
  }
  return files;
}

/** The file of a memory: the one whose frontmatter names its id. */
function fileOf(vault: string, id: string): [string, string] | undefined {
  return [...vaultFiles(vault)].find(([, text]) => text.includes(`\nid: ${id}\n`));
}

async function drained(daemon: TestDaemon): Promise<void> {
  const status = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.pending === 0n);
  expect(status.pending).toBe(0n);
}

/**
 * A sentinel for the vault's watcher and writer: a new file a person writes into `folder` (one of
 * memd's <project>/<kind>/ folders), waited for until memd has read it as a memory and written it
 * back with its id. Then the folder is watched, every file event before the sentinel's has been
 * handled, and every vault write queued before it is done: what did not happen by then will not.
 */
async function sentinel(daemon: TestDaemon, vault: string, folder: string, word: string): Promise<void> {
  const file = path.join(vault, folder, `sentinel-${word}.md`);
  fs.writeFileSync(file, `---\nconcepts: [sentinel]\n---\nA sentinel ${word} for the vault's watcher.\n`);
  const found = await until(() => daemon.clients.memory.search({ query: word, allProjects: true, mode: SearchMode.KEYWORD }), (r) => r.results.length > 0);
  const id = found.results[0]?.memory?.id ?? "";
  expect(await until(() => fs.readFileSync(file, "utf8"), (text) => text.includes(`\nid: ${id}\n`))).toContain(`\nid: ${id}\n`);
  await drained(daemon);
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

    // Reads change nothing the file holds: it is not written again, by the time a later file is.
    await daemon.clients.memory.search({ query: "Kamal", project: "shop" });
    await daemon.clients.memory.get({ id });
    await sentinel(daemon, vault, "shop/decision", "zanzibar");
    expect(fs.statSync(file).mtimeMs).toBe(written);

    await daemon.clients.memory.update({ id, concepts: { values: ["deploy", "kamal"] } });
    const updated = await until(() => fs.readFileSync(file, "utf8"), (t) => t.includes("kamal\n"));
    expect(updated).toMatch(/concepts:\n {2}- deploy\n {2}- kamal\n/);
    expect(updated).toMatch(/action: updated/);
    // The name stays when the content changes; the folder follows the kind.
    await daemon.clients.memory.update({ id, content: "We deploy with Kamal 2 now.", kind: MemoryKind.FACT });
    const moved = await until(() => fileOf(vault, id), (found) => found?.[0].startsWith("shop/fact/") === true);
    expect(moved?.[0]).toBe(relative.replace("/decision/", "/fact/"));
    // The old file goes once the move is recorded, a moment after the new one is there.
    expect(await until(() => fs.existsSync(file), (exists) => !exists)).toBe(false);
  });

  // Linux only: /proc shows each thread's nice value only on Linux. CI runs Debian, so there it always runs.
  it.runIf(process.platform === "linux")("writes the files from a thread of lower priority than the one answering requests", async () => {
    const daemon = await start(newHome());
    await daemon.clients.memory.save({ content: "Invoices are numbered per tenant.", kind: MemoryKind.FACT, project: "shop" });
    await drained(daemon);
    const pid = (await daemon.clients.admin.health({})).health?.pid ?? 0;
    // The nice value is the 19th field of /proc/<pid>/task/<tid>/stat, the 17th after the command's closing parenthesis.
    const nice = (tid: string) => Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]?.split(" ")[16]);
    const threads = fs.readdirSync(`/proc/${pid}/task`).map(nice);
    expect(nice(String(pid))).toBe(0);
    expect(threads).toContain(10);
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

  it("rebuilds on request, reporting a broken file with its line without touching it; a secret typed into a file is not stored", async () => {
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
    // The watcher reads the changed file at start-up as an edit; the rebuild then finds it as stored.
    const redacted = await until(() => again.clients.memory.get({ id }), (r) => r.memory?.content.includes("kept in 1Password") === true);
    expect(redacted.memory?.content).not.toContain("AKIAIOSFODNN7EXAMPLE");
    await drained(again);
    const res = await again.clients.vault.rebuildFromVault({});
    expect(res).toMatchObject({ files: 2n, created: 0n, updated: 0n, unchanged: 1n });
    expect(res.problems).toEqual([expect.objectContaining({ path: "shop/fact/broken.md", line: 3 })]);
    expect(fs.readFileSync(broken, "utf8")).toBe(brokenText);
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

  it("reads a person's edits of content, concepts and status back, into Search and History", async () => {
    const home = newHome();
    const daemon = await start(home);
    const vault = path.join(home, "vault");
    const id = (await daemon.clients.memory.save({ content: "Logs go to Loki.", kind: MemoryKind.FACT, project: "ops", concepts: ["logging"] })).memory?.id ?? "";
    await drained(daemon);
    const [relative, text] = fileOf(vault, id) ?? ["", ""];
    const file = path.join(vault, relative);
    // aliases is an Obsidian property of the person's own, which memd keeps when it rewrites the file.
    const edited = text.replace("Logs go to Loki.", "Logs go to Loki and are kept for 30 days.").replace("concepts:\n  - logging\n", "aliases:\n  - loki\nconcepts:\n  - logging\n  - retention\n");
    fs.writeFileSync(file, edited);
    const found = await until(() => daemon.clients.memory.search({ query: "kept 30 days", project: "ops", mode: SearchMode.KEYWORD }), (r) => r.results.length > 0);
    expect(found.results[0]?.memory?.concepts).toEqual(["logging", "retention"]);
    const history = await daemon.clients.memory.history({ id });
    const edit = history.events.at(-1);
    expect(edit?.action).toBe("updated");
    expect(JSON.parse(edit?.detail ?? "{}")).toMatchObject({ provenance: "human", replaced: { content: "Logs go to Loki.", concepts: ["logging"] } });
    // memd rewrites the file as it stores it, and reads its own write back as nothing.
    await drained(daemon);
    expect(fs.readFileSync(file, "utf8")).toContain("action: updated");
    await sentinel(daemon, vault, "ops/fact", "zanzibar");
    expect((await daemon.clients.memory.history({ id })).events.length).toBe(history.events.length);
    await daemon.clients.memory.update({ id, importance: 4 });
    const rewritten = await until(() => fs.readFileSync(file, "utf8"), (t) => t.includes("importance: 4\n"));
    expect(rewritten).toContain("aliases:\n  - loki\n");

    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("status: active", "status: archived"));
    const archived = await until(() => daemon.clients.memory.get({ id }), (r) => r.memory?.status === MemoryStatus.ARCHIVED);
    expect(archived.memory?.status).toBe(MemoryStatus.ARCHIVED);
  });

  it("archives the memory of a deleted file, and makes a new file without an id a memory of its folder's project and kind", async () => {
    const home = newHome();
    const daemon = await start(home);
    const vault = path.join(home, "vault");
    const id = (await daemon.clients.memory.save({ content: "The cache TTL is five minutes.", kind: MemoryKind.FACT, project: "shop" })).memory?.id ?? "";
    await drained(daemon);
    // The folders were made just now: the watcher watches them once it has seen them made.
    await sentinel(daemon, vault, "shop/fact", "zanzibar");
    const [relative] = fileOf(vault, id) ?? [""];
    fs.rmSync(path.join(vault, relative));
    const gone = await until(() => daemon.clients.memory.get({ id }), (r) => r.memory?.status === MemoryStatus.ARCHIVED);
    expect(gone.memory?.archiveReason).toContain("was deleted from the vault");
    // Never deleted: the file comes back, archived.
    expect((await until(() => fileOf(vault, id), (f) => f?.[1].includes("status: archived") === true))?.[0]).toBe(relative);

    const handWritten = path.join(vault, "shop", "decision", "use-stripe.md");
    fs.mkdirSync(path.dirname(handWritten), { recursive: true });
    fs.writeFileSync(handWritten, "---\nconcepts: [payments]\n---\nWe take payments with Stripe, not PayPal.\n");
    const created = await until(() => daemon.clients.memory.search({ query: "Stripe PayPal", project: "shop", mode: SearchMode.KEYWORD }), (r) => r.results.length > 0);
    const memory = created.results[0]?.memory;
    expect(memory).toMatchObject({ kind: MemoryKind.DECISION, project: "shop", concepts: ["payments"] });
    // The same file, now memd's: rewritten in place with the new memory's id.
    const rewritten = await until(() => fs.readFileSync(handWritten, "utf8"), (t) => t.includes(`id: ${memory?.id}`));
    expect(rewritten).toContain("We take payments with Stripe, not PayPal.");

    // A person's own note outside memd's <project>/<kind>/ folders is none of memd's business.
    const note = path.join(vault, "notes", "todo.md");
    fs.mkdirSync(path.dirname(note), { recursive: true });
    const noteText = "---\ntags: [personal]\n---\nBuy milk. Renew the Stripe certificate.\n";
    fs.writeFileSync(note, noteText);
    await sentinel(daemon, vault, "shop/fact", "quokka");
    expect(fs.readFileSync(note, "utf8")).toBe(noteText);
    expect((await daemon.clients.memory.search({ query: "milk", allProjects: true, mode: SearchMode.KEYWORD })).results).toEqual([]);
    expect((await daemon.clients.vault.getVaultStatus({})).unreadable).toEqual([]);
  });

  it("checks what a person writes in the vault for contradictions as a Save and an Update are: a new file and an edit each queue the pair, and stay active", async () => {
    const home = newHome();
    const daemon = await start(home);
    const vault = path.join(home, "vault");
    const clerk = (await daemon.clients.memory.save({ content: "Auth is Clerk, not custom JWT.", kind: MemoryKind.DECISION, project: "acme" })).memory?.id ?? "";
    const node18 = (await daemon.clients.memory.save({ content: "The API server runs on Node 18.", kind: MemoryKind.DECISION, project: "acme" })).memory?.id ?? "";
    const errors = (await daemon.clients.memory.save({ content: "Errors go to Sentry.", kind: MemoryKind.DECISION, project: "acme" })).memory?.id ?? "";
    await drained(daemon);
    await sentinel(daemon, vault, "acme/decision", "zanzibar");

    const handWritten = path.join(vault, "acme", "decision", "auth0.md");
    fs.writeFileSync(handWritten, "---\nconcepts: [auth]\n---\nAuth moved to Auth0 last sprint; Clerk's pricing didn't work for us.\n");
    const first = await until(() => daemon.clients.contradictions.listContradictions({ project: "acme" }), (r) => r.openCount === 1);
    const [written] = first.contradictions;
    expect(written).toMatchObject({ subject: "auth provider", newerSays: "Auth0", olderSays: "Clerk", source: ContradictionSource.VAULT });
    expect(written?.other?.id).toBe(clerk);
    expect((await daemon.clients.memory.get({ id: written?.memory?.id ?? "" })).memory?.status).toBe(MemoryStatus.ACTIVE);

    // An edit of another memory's file into a claim about something else: the edited memory is the newer side.
    const [relative, text] = fileOf(vault, errors) ?? ["", ""];
    fs.writeFileSync(path.join(vault, relative), text.replace("Errors go to Sentry.", "api-server is on Node 20 since the upgrade in March."));
    const second = await until(() => daemon.clients.contradictions.listContradictions({ project: "acme" }), (r) => r.openCount === 2);
    const edited = second.contradictions.find((c) => c.memory?.id === errors);
    expect(edited).toMatchObject({ subject: "node version", source: ContradictionSource.VAULT });
    expect(edited?.other?.id).toBe(node18);
  });

  it("leaves a broken file exactly as written and reports its line, once to the briefing; redacts a secret typed into a file, there and in the database", async () => {
    const home = newHome();
    const daemon = await start(home);
    const vault = path.join(home, "vault");
    const id = (await daemon.clients.memory.save({ content: "Deploys need the AWS profile prod.", kind: MemoryKind.FACT, project: "ops" })).memory?.id ?? "";
    await drained(daemon);
    const [relative, text] = fileOf(vault, id) ?? ["", ""];
    const file = path.join(vault, relative);
    const broken = text.replace("importance: 3", "importance: eleven");
    fs.writeFileSync(file, broken);
    const status = await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.unreadable.length > 0);
    const line = broken.split("\n").findIndex((l) => l.startsWith("importance:")) + 1;
    expect(status.unreadable).toEqual([expect.objectContaining({ path: relative, line, reason: expect.stringMatching(/importance/) })]);
    // The agent is told once, at its next briefing, so that it can tell the person.
    expect((await daemon.clients.memory.brief({ project: "ops", sessionId: "s1" })).text).toContain(`memd could not read a file in its vault, left as written until fixed: ${relative}:${line}`);
    expect((await daemon.clients.memory.brief({ project: "ops", sessionId: "s2" })).text).not.toContain("could not read");
    await sentinel(daemon, vault, "ops/fact", "zanzibar");
    expect(fs.readFileSync(file, "utf8")).toBe(broken);
    expect((await daemon.clients.memory.get({ id })).memory?.importance).toBe(3);

    fs.writeFileSync(file, text.replace("Deploys need the AWS profile prod.", "Deploys use the key AKIAIOSFODNN7EXAMPLE."));
    const redacted = await until(() => daemon.clients.memory.get({ id }), (r) => r.memory?.content.includes("Deploys use the key") === true);
    expect(redacted.memory?.content).not.toContain("AKIAIOSFODNN7EXAMPLE");
    const cleaned = await until(() => fs.readFileSync(file, "utf8"), (t) => !t.includes("AKIAIOSFODNN7EXAMPLE"));
    expect(cleaned).toContain("Deploys use the key [REDACTED");
    expect((await daemon.clients.vault.getVaultStatus({})).unreadable).toEqual([]);
  });

  it("keeps both of two quick edits in the history, the last one winning", async () => {
    const home = newHome();
    const daemon = await start(home);
    const vault = path.join(home, "vault");
    const id = (await daemon.clients.memory.save({ content: "Releases ship on Tuesdays.", kind: MemoryKind.FACT, project: "ops" })).memory?.id ?? "";
    await drained(daemon);
    const [relative, text] = fileOf(vault, id) ?? ["", ""];
    const file = path.join(vault, relative);
    const first = text.replace("Releases ship on Tuesdays.", "Releases ship on Wednesdays.");
    fs.writeFileSync(file, first);
    await until(() => daemon.clients.memory.get({ id }), (r) => r.memory?.content === "Releases ship on Wednesdays.");
    // The editor still holds the first version and saves again before memd's rewrite reached it.
    fs.writeFileSync(file, first.replace("Wednesdays.", "Thursdays."));
    const last = await until(() => daemon.clients.memory.get({ id }), (r) => r.memory?.content === "Releases ship on Thursdays.");
    expect(last.memory?.content).toBe("Releases ship on Thursdays.");
    const replaced = (await daemon.clients.memory.history({ id })).events.filter((e) => e.action === "updated").map((e) => (JSON.parse(e.detail) as { replaced: { content: string } }).replaced.content);
    expect(replaced).toEqual(["Releases ship on Tuesdays.", "Releases ship on Wednesdays."]);
  });

  it("reads edits and deletions made while memd was not running when it starts", async () => {
    const home = newHome();
    const first = await start(home);
    const vault = path.join(home, "vault");
    const kept = (await first.clients.memory.save({ content: "Staging resets nightly.", kind: MemoryKind.FACT, project: "ops" })).memory?.id ?? "";
    const dropped = (await first.clients.memory.save({ content: "The old VPN is vpn1.", kind: MemoryKind.FACT, project: "ops" })).memory?.id ?? "";
    await drained(first);
    await first.stop();
    daemons.pop();
    const [keptPath, keptText] = fileOf(vault, kept) ?? ["", ""];
    fs.writeFileSync(path.join(vault, keptPath), keptText.replace("Staging resets nightly.", "Staging resets nightly at 02:00 UTC."));
    fs.rmSync(path.join(vault, fileOf(vault, dropped)?.[0] ?? ""));
    const second = await start(home);
    expect((await until(() => second.clients.memory.get({ id: kept }), (r) => r.memory?.content.includes("02:00") === true)).memory?.content).toBe("Staging resets nightly at 02:00 UTC.");
    expect((await until(() => second.clients.memory.get({ id: dropped }), (r) => r.memory?.status === MemoryStatus.ARCHIVED)).memory?.status).toBe(MemoryStatus.ARCHIVED);
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
