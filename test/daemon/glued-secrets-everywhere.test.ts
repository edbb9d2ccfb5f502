// The glued and obfuscated secrets of the corpus through every way into a real daemon that
// pushes to a real PostgreSQL hub: none may be stored in the database, its WAL, the logs, the
// vault's files, an export or the hub's rows, as written or as it reads.
import fs from "node:fs";
import path from "node:path";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { OBFUSCATED_SECRET_SAMPLES } from "../../daemon/src/redact/obfuscated-corpus.js";
import { runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { postgresMissing, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { expectNoSecrets, fileHaystacks, textHaystack } from "../helpers/secret-haystack.js";
import { until } from "../helpers/until.js";

const missing = postgresMissing();
const SECRETS = OBFUSCATED_SECRET_SAMPLES.flatMap((sample) => sample.secrets.map((s) => s.value));

describeUnless(missing, "glued and obfuscated secrets on every path, through a PostgreSQL hub", () => {
  let server: TestPostgres;
  let daemon: TestDaemon;

  beforeAll(async () => {
    server = await startPostgres();
    const url = await server.createUser("ada", "ada-pw");
    daemon = await spawnDaemon({ env: { MEMD_HUB_URL: url, MEMD_LOG_LEVEL: "debug" } });
  }, 120_000);

  afterAll(async () => {
    if (daemon && daemon.process.exitCode === null) await daemon.kill();
    await server?.stop();
    if (daemon) fs.rmSync(daemon.home, { recursive: true, force: true });
  });

  it("stores none of them, raw or folded, anywhere the daemon or the hub keeps text", async () => {
    const { memory, admin, vault, hub } = daemon.clients;
    const vaultDir = path.join(daemon.home, "vault");
    for (const [n, { text }] of OBFUSCATED_SECRET_SAMPLES.entries()) {
      // A list entry holds no line break.
      const short = text.includes("\n") ? [] : [text];
      const saved = await memory.save({ content: `glued ${n}: ${text}`, problem: text, concepts: [`g${n}`, ...short], files: short, project: "glued" });
      const id = saved.memory?.id ?? "";
      expect(saved.memory?.content, OBFUSCATED_SECRET_SAMPLES[n]?.name).toContain("[REDACTED:");
      await memory.update({ id, solution: text });
      await memory.supersede({ id, content: `corrected ${n}: ${text}`, reason: text });
      const checkpoint = await memory.checkpoint({ summary: `checkpoint ${n}: ${text}`, problem: text, solution: text, project: "glued" });
      await memory.archive({ id: checkpoint.memory?.id ?? "", reason: text });
      // A file a person wrote into the vault: its body and their own properties (notes, aliases).
      const file = path.join(vaultDir, "glued", "fact", `hand-written-${n}.md`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `---\naliases:\n  - ${JSON.stringify(text)}\nnotes: ${JSON.stringify(text)}\n---\nHand-written ${n}: ${text}\n`);
    }
    await admin.import({
      memories: OBFUSCATED_SECRET_SAMPLES.map((sample, n) => ({
        id: `01J2${String(n).padStart(22, "0")}`, content: `imported ${n}: ${sample.text}`, importance: 3, project: "glued",
        status: MemoryStatus.ARCHIVED, archiveReason: sample.text, createTime: timestampFromMs(Date.now()),
      })),
    });

    // Every hand-written file became a memory and was rewritten as memd stores it.
    const created = await until(
      () => memory.list({ project: "glued", pageSize: 1000 }),
      (r) => r.memories.filter((m) => m.content.startsWith("Hand-written")).length === OBFUSCATED_SECRET_SAMPLES.length,
      30_000,
    );
    expect(created.memories.filter((m) => m.content.startsWith("Hand-written")).length).toBe(OBFUSCATED_SECRET_SAMPLES.length);
    await until(
      () => vault.getVaultStatus({}),
      (s) => s.pending === 0n && fs.readdirSync(path.join(vaultDir, "glued", "fact")).filter((f) => f.startsWith("hand-written")).every((f) => fs.readFileSync(path.join(vaultDir, "glued", "fact", f), "utf8").includes("\nid: ")),
      30_000,
    );
    const pushed = await until(() => hub.getHubStatus({}), (s) => s.connected && s.pendingMemories === 0n && s.pendingEvents === 0n && s.pushed > 0n, 60_000);
    expect(pushed).toMatchObject({ pendingMemories: 0n, pendingEvents: 0n });

    const exported = await runCli(daemon.home, ["export"]);
    expect(exported.code).toBe(0);
    const hubRows = await server.admin<{ row: string }>("SELECT m::text AS row FROM memd.memories m UNION ALL SELECT e::text FROM memd.events e");
    expect(hubRows.rows.length).toBeGreaterThan(OBFUSCATED_SECRET_SAMPLES.length * 3);
    const running = fileHaystacks(daemon.home);
    expect(running.some((f) => f.where.endsWith("-wal"))).toBe(true);
    expect(await daemon.stop()).toBe(0);
    expectNoSecrets(
      [...running, ...fileHaystacks(daemon.home), textHaystack("export", exported.stdout), textHaystack("the hub's rows", hubRows.rows.map((r) => r.row).join("\n"))],
      SECRETS,
    );
  }, 300_000);
});
