import fs from "node:fs";
import path from "node:path";
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { StringListSchema } from "../../gen/memd/v1/memory_service_pb.js";
import { COMMAND_LINE_SECRET_SAMPLES } from "../../daemon/src/redact/command-line-corpus.js";
import { SECRET_SAMPLES } from "../../daemon/src/redact/secret-corpus.js";
import { REPO_ROOT, runCli, runProcess, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { expectNoSecrets, fileHaystacks, textHaystack } from "../helpers/secret-haystack.js";
import { until } from "../helpers/until.js";

const HOOK_BIN = path.join(REPO_ROOT, "dist/hooks/src/main.js");
/** The daemon's limit on one entry of concepts, files and tags: longer samples stay out of those fields whole. */
const MAX_LIST_ENTRY = 512;
/** A trace keeps about 1,500 characters: commands are batched below that, so none is cut. */
const TRACE_BATCH_CHARS = 1300;

function runHook(home: string, event: string, payload: Record<string, unknown>) {
  return runProcess(HOOK_BIN, [event], { env: { MEMD_HOME: home, MEMD_HOOK_TIMEOUT_MS: "20000" }, input: JSON.stringify(payload) });
}

/** Runs `work` over `items`, at most `limit` at a time: each hook is a process, and the machine may have two cores. */
async function inBatches<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += limit) await Promise.all(items.slice(i, i + limit).map((item, j) => work(item, i + j)));
}

/** Sample texts joined into groups of at most `max` characters. */
function batches(texts: readonly string[], max: number): string[] {
  const out: string[] = [];
  for (const text of texts) {
    const last = out.at(-1);
    if (last !== undefined && last.length + text.length + 1 <= max) out[out.length - 1] = `${last}\n${text}`;
    else out.push(text);
  }
  return out;
}

async function expectRefused(call: Promise<unknown>, field: string, secrets: readonly string[]): Promise<void> {
  const error = await call.then(() => undefined, (e: unknown) => ConnectError.from(e));
  // A size limit may answer first for a long sample; either way nothing is stored.
  expect([Code.InvalidArgument, Code.ResourceExhausted], `${field} with a secret was accepted`).toContain(error?.code);
  for (const secret of secrets) expect(error?.rawMessage).not.toContain(secret);
}

describe("the secret corpus on every path", () => {
  it("keeps every secret out of the database, its WAL, memd.log, hooks.log and an export", async () => {
    const secrets = SECRET_SAMPLES.flatMap((sample) => sample.secrets.map((s) => s.value));
    const d: TestDaemon = await spawnDaemon({ env: { MEMD_LOG_LEVEL: "debug" } });
    const workspace = fs.mkdtempSync(path.join(d.home, "acme-api-"));
    try {
      const { memory, admin, capture } = d.clients;
      let stored = 0;
      for (const [n, sample] of SECRET_SAMPLES.entries()) {
        const text = sample.text;
        const values = sample.secrets.map((s) => s.value);
        const short = text.length <= MAX_LIST_ENTRY ? [text] : [];
        const saved = await memory.save({ content: `note ${n}: ${text}`, problem: text, solution: text, concepts: [`c${n}`, ...short], files: short, tags: short, project: "secrets", sessionId: `session-${n}` });
        const id = saved.memory?.id ?? "";
        await memory.update({ id, content: `updated ${n}: ${text}`, tags: create(StringListSchema, { values: [`t${n}`, ...short] }) });
        const corrected = await memory.supersede({ id, content: `corrected ${n}: ${text}`, reason: text, sessionId: `session-${n}` });
        const checkpoint = await memory.checkpoint({ summary: `checkpoint ${n}: ${text}`, problem: text, solution: text, concepts: short, project: "secrets" });
        await memory.archive({ id: checkpoint.memory?.id ?? "", reason: text });
        stored += 3;

        // Identifiers are refused, not redacted, on every RPC that stores one.
        await expectRefused(memory.save({ content: `id ${n}`, project: "secrets", sessionId: text }), "Save session_id", values);
        await expectRefused(memory.checkpoint({ summary: `id ${n}`, project: "secrets", sourceAgent: text }), "Checkpoint source_agent", values);
        await expectRefused(memory.supersede({ id: corrected.memory?.id ?? "", content: `id ${n}`, sessionId: text }), "Supersede session_id", values);
        const within = (length: number) => values.every((v) => text.indexOf(v) + v.length <= length);
        if (within(120)) await expectRefused(memory.save({ content: `id ${n}`, project: text.slice(0, 120) }), "Save project", values);
        if (within(250)) await expectRefused(memory.suggest({ query: "which database do we use", sessionId: text.slice(0, 250), cwd: workspace }), "Suggest session_id", values);
        if (within(250)) await expectRefused(memory.suggest({ query: "which database do we use", via: text.slice(0, 250), cwd: workspace }), "Suggest via", values);
        if (within(250)) await expectRefused(memory.recall({ query: "database", sourceAgent: text.slice(0, 250), cwd: workspace }), "Recall source_agent", values);
        // The injection record keeps each prompt and query it answered, redacted.
        await memory.suggest({ query: `which database do we use? ${text}`, cwd: workspace, sessionId: `prompt-${n}` });
        await memory.recall({ query: `database ${text}`.slice(0, 16_000), cwd: workspace, sessionId: `recall-${n}` });
        await expectRefused(
          admin.import({ memories: [{ id: `01HZ${String(n).padStart(22, "0")}`, content: `id ${n}`, importance: 3, project: "secrets", sessionId: text, createTime: timestampFromMs(Date.now()) }] }),
          "Import session_id",
          values,
        );

        const transcript = path.join(workspace, `capture-${n}.jsonl`);
        const lines = text.split("\n").map((line) => JSON.stringify({ type: "user", sessionId: `capture-${n}`, cwd: workspace, message: { role: "user", content: `From now on, use ${line}` } }));
        fs.writeFileSync(transcript, `${lines.join("\n")}\n`);
        await capture.captureTranscript({ transcriptPath: transcript, sessionId: `capture-${n}`, project: "secrets", sourceAgent: "claude-code", wait: true });
        await expectRefused(capture.captureTranscript({ transcriptPath: transcript, sourceAgent: text, wait: true }), "CaptureTranscript source_agent", values);
      }
      const imported = await admin.import({
        memories: SECRET_SAMPLES.map((sample, n) => ({
          id: `01J0${String(n).padStart(22, "0")}`, content: `imported ${n}: ${sample.text}`, problem: sample.text, importance: 3, project: "secrets",
          concepts: sample.text.length <= MAX_LIST_ENTRY ? [sample.text] : [], status: MemoryStatus.ARCHIVED, archiveReason: sample.text, createTime: timestampFromMs(Date.now()),
        })),
      });
      expect(imported.created).toBe(SECRET_SAMPLES.length);

      // The hooks: failed commands as traces (batched so that no trace is cut), a memory note
      // with every sample, and a daemon refusal quoting the start of each command-line sample
      // (an unusable cwd), which the hook writes to hooks.log.
      const failure = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "test/hooks/fixtures/post-tool-use-bash-error.json"), "utf8")) as Record<string, unknown>;
      const traces = batches(SECRET_SAMPLES.map((s) => s.text), TRACE_BATCH_CHARS);
      await inBatches(traces, 4, (command, i) =>
        runHook(d.home, "PostToolUseFailure", { ...failure, session_id: `hook-${i}`, cwd: workspace, tool_input: { command }, error: `Exit code 1\nerror: ${command.split("\n")[0] ?? ""}` }),
      );
      const noteFixture = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "test/hooks/fixtures/post-tool-use-write-md.json"), "utf8")) as Record<string, unknown>;
      const notePath = path.join(workspace, ".claude", "projects", "-acme-api", "memory", "secrets_everywhere.md");
      const note = `---\nname: secrets everywhere\ndescription: every sample of the corpus\ntype: project\n---\n${SECRET_SAMPLES.map((s) => s.text).join("\n\n")}\n`;
      await runHook(d.home, "PostToolUse", { ...noteFixture, session_id: "hook-note", cwd: workspace, tool_input: { file_path: notePath, content: note } });
      await inBatches(COMMAND_LINE_SECRET_SAMPLES, 6, (sample, i) =>
        runHook(d.home, "PostToolUseFailure", { ...failure, session_id: `hook-log-${i}`, cwd: sample.text.slice(0, 80), tool_input: { command: sample.text } }),
      );
      const hookLog = fs.readFileSync(path.join(d.home, "logs", "hooks.log"), "utf8");
      expect(hookLog.split("\n").filter((line) => line.includes("cwd must be an absolute path")).length).toBe(COMMAND_LINE_SECRET_SAMPLES.length);
      const { memories: hookTraces } = await memory.list({ project: path.basename(workspace), sessionId: "hook-0" });
      expect(hookTraces[0]?.content).toContain("[REDACTED:");

      // memctl: a memory with every sample, and an import of every sample.
      const everything = SECRET_SAMPLES.map((s) => s.text).join("\n\n");
      expect((await runCli(d.home, ["add", "--project", "secrets", "--session", "memctl-1", "--", everything])).code).toBe(0);
      const jsonl = path.join(workspace, "import.jsonl");
      fs.writeFileSync(jsonl, SECRET_SAMPLES.map((s, n) => JSON.stringify({ id: `01J1${String(n).padStart(22, "0")}`, content: `memctl import ${n}: ${s.text}`, importance: 3, project: "secrets", createTime: new Date().toISOString() })).join("\n"));
      expect((await runCli(d.home, ["import", jsonl])).code).toBe(0);

      const exported = await runCli(d.home, ["export"]);
      expect(exported.code).toBe(0);
      expect(exported.stdout.split("\n").filter(Boolean).length).toBeGreaterThan(stored);

      // Read once the vault has written its files: a file being written is a temporary one for a moment.
      expect((await until(() => d.clients.vault.getVaultStatus({}), (s) => s.pending === 0n)).pending).toBe(0n);
      // The WAL is folded into the database on shutdown: read the files while the daemon runs too.
      // The transcripts the test wrote hold the secrets on purpose; the vault's files must not.
      const read = () => fileHaystacks(d.home, (file) => !file.endsWith(".jsonl"));
      const running = read();
      expect(running.some((f) => f.where.endsWith("-wal"))).toBe(true);
      expect(running.some((f) => f.where.endsWith(".md"))).toBe(true);
      expect(await d.stop()).toBe(0);
      expectNoSecrets([...running, ...read(), textHaystack("export", exported.stdout)], secrets);
    } finally {
      if (d.process.exitCode === null) await d.kill();
      fs.rmSync(d.home, { recursive: true, force: true });
    }
  });
});
