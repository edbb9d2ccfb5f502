import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind } from "../../gen/memd/v1/memory_pb.js";
import { SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import { type FakeOllamaOptions, startFakeOllama } from "../embed/fake-ollama.js";
import type { LocalServer } from "../embed/local-http-server.js";
import { makeHome, REPO_ROOT, runCli, runProcess, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const HOOK_BIN = path.join(REPO_ROOT, "dist/hooks/src/main.js");
const PROMPT_FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../hooks/fixtures/user-prompt-submit.json");
const REFRESH_TOKENS = "Refresh tokens are stored hashed in Postgres (table refresh_tokens), not in Redis.";
/** Claude Code's UserPromptSubmit payload: its prompt bears on the memory above. */
const PROMPT_PAYLOAD = JSON.parse(fs.readFileSync(PROMPT_FIXTURE, "utf8")) as { prompt: string };

/** Ollama's nomic-embed-text prefix marks a query's text (documents get "search_document: "). */
const isQuery = (texts: string[]) => texts.some((text) => text.startsWith("search_query: "));

interface Setup {
  ollama: LocalServer;
  daemon: TestDaemon;
  workspace: string;
  saved: string;
}

/** A daemon on Ollama whose documents embed, with one memory in a project named after a workspace. */
async function setUp(ollama: LocalServer): Promise<Setup> {
  const home = makeHome();
  const daemon = await spawnDaemon({ home, env: { MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url } });
  const workspace = fs.mkdtempSync(path.join(home, "acme-api-"));
  const res = await daemon.clients.memory.save({ content: REFRESH_TOKENS, kind: MemoryKind.DECISION, cwd: workspace, waitForVector: true });
  expect(res.vectorReady).toBe(true);
  return { ollama, daemon, workspace, saved: res.memory?.id ?? "" };
}

/** The describe block's daemon, on a fake Ollama that behaves as `options` say, set up once for its tests. */
function onOllama(options: FakeOllamaOptions): () => Setup {
  let setup: Setup | undefined;
  beforeAll(async () => {
    setup = await setUp(await startFakeOllama(options));
  });
  afterAll(async () => {
    if (!setup) return;
    await setup.daemon.stop();
    await setup.ollama.close();
    fs.rmSync(setup.daemon.home, { recursive: true, force: true });
  });
  return () => setup as Setup;
}

describe("search while Ollama fails every query (against a local server speaking the Ollama API)", () => {
  const setup = onOllama({ failWhen: isQuery });

  it("answers hybrid search, recall and prompt pointers from keywords and the graph, and says why", async () => {
    const { daemon, workspace, saved } = setup();
    const search = await daemon.clients.memory.search({ query: "where do refresh tokens live", cwd: workspace, mode: SearchMode.HYBRID });
    expect(search.results.map((r) => r.memory?.id)).toEqual([saved]);
    expect(search.vectorsSkipped).toMatch(/ollama.*failed.*503/);

    const recalled = await daemon.clients.memory.recall({ query: "refresh tokens", cwd: workspace });
    expect(recalled.memories.map((m) => m.id)).toEqual([saved]);
    expect(recalled.vectorsSkipped).toBe(search.vectorsSkipped);

    const pointers = await daemon.clients.memory.suggest({ query: PROMPT_PAYLOAD.prompt, cwd: workspace });
    expect(pointers.pointers.map((p) => p.id)).toEqual([saved]);
    expect(pointers.vectorsSkipped).toBe(search.vectorsSkipped);

    const log = fs.readFileSync(path.join(daemon.home, "logs", "memd.log"), "utf8").split("\n").filter((line) => line !== "");
    const skips = log.map((line) => JSON.parse(line) as { msg: string; rpc?: string; reason?: string }).filter((entry) => entry.msg === "searched without vectors");
    expect(skips.map((entry) => [entry.rpc, entry.reason])).toEqual(
      ["Search", "Recall", "Suggest"].map((method) => [`memd.v1.MemoryService/${method}`, search.vectorsSkipped]),
    );
  });

  it("still refuses a vector-only search as unavailable: that one has nothing else to answer with", async () => {
    const { daemon, workspace } = setup();
    const failure = await daemon.clients.memory.search({ query: "refresh tokens", cwd: workspace, mode: SearchMode.VECTOR }).catch((e: unknown) => e);
    expect(ConnectError.from(failure).code).toBe(Code.Unavailable);
  });

  it("has memctl print the results, and on stderr a note that vectors were left out", async () => {
    const { daemon, workspace } = setup();
    const run = await runCli(daemon.home, ["search", "refresh", "tokens"], { cwd: workspace });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(REFRESH_TOKENS);
    expect(run.stderr).toMatch(/^memctl: note: searched without vectors \(.*503.*\); these results come from keywords and the entity graph alone\n$/);
  });
});

describe("search while Ollama never answers a query (against a local server speaking the Ollama API)", () => {
  const setup = onOllama({ hangWhen: isQuery });

  it("stops waiting for the query's embedding before the call's deadline, and answers without vectors", async () => {
    const { daemon, workspace, saved } = setup();
    // The deadline as the daemon hears it; the client itself does not give up, so a slow machine cannot fail the test.
    const res = await daemon.clients.memory.search(
      { query: "refresh tokens", cwd: workspace, mode: SearchMode.HYBRID },
      { headers: { "connect-timeout-ms": "500" } },
    );
    expect(res.results.map((r) => r.memory?.id)).toEqual([saved]);
    expect(res.vectorsSkipped).toMatch(/^the query's embedding did not arrive within \d+ ms$/);
    const waited = Number(/within (\d+) ms/.exec(res.vectorsSkipped)?.[1]);
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThan(500);
  });

  it("fails a vector-only search as unavailable once the wait is over, instead of hanging on the embedder", async () => {
    const { daemon, workspace } = setup();
    const failure = await daemon.clients.memory
      .search({ query: "refresh tokens", cwd: workspace, mode: SearchMode.VECTOR }, { headers: { "connect-timeout-ms": "300" } })
      .catch((e: unknown) => e);
    expect(ConnectError.from(failure).code).toBe(Code.Unavailable);
    expect(ConnectError.from(failure).rawMessage).toMatch(/^the query's embedding did not arrive within \d+ ms; keyword and hybrid search answer without it$/);
  });

  it("still gives the prompt hook its pointers within the hook's budget", async () => {
    const { daemon, workspace } = setup();
    const payload = { ...PROMPT_PAYLOAD, cwd: workspace, session_id: "outage-1" };
    // Shorter than the daemon's own 3 s wait: only the deadline the hook sends makes it answer in time.
    const run = await runProcess(HOOK_BIN, ["UserPromptSubmit"], { env: { MEMD_HOME: daemon.home, MEMD_HOOK_TIMEOUT_MS: "2500" }, input: JSON.stringify(payload) });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const output = JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expect(output.hookSpecificOutput.additionalContext).toContain(REFRESH_TOKENS);
  });
});
