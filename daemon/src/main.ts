#!/usr/bin/env node
import { Command, Option } from "commander";
import { ConfigError, EMBEDDER_CHOICES, loadConfig } from "./config/config.js";
import { readEnv } from "./config/env.js";
import { startDaemon } from "./daemon.js";
import { SchemaTooNewError } from "./errors.js";
import { AlreadyRunningError } from "./server/instance-lock.js";
import { readVersion } from "./version.js";

const program = new Command("memd")
  .description(
    "The memd daemon: long-term memory for AI coding agents. It owns the memory database and serves the\n" +
      "memd.v1 Connect APIs (Connect, gRPC and gRPC-Web; JSON and binary; HTTP/1.1 and h2c) on a Unix socket.\n" +
      "Runs in the foreground; use 'memctl start' to run it in the background.",
  )
  .version(readVersion())
  .option("--home <dir>", "state directory: memd.db, memd.sock, logs/, token (env MEMD_HOME, default ~/.memd)")
  .option(
    "--listen <host:port>",
    "also serve loopback TCP, e.g. 127.0.0.1:7077; every request needs 'Authorization: Bearer <MEMD_HOME/token>' (env MEMD_LISTEN)",
  )
  .addOption(
    new Option("--log-level <level>", "log level for MEMD_HOME/logs/memd.log (env MEMD_LOG_LEVEL, default info)").choices([
      "fatal", "error", "warn", "info", "debug", "trace", "silent",
    ]),
  )
  .option("--max-content-bytes <n>", "largest memory content accepted, in bytes (env MEMD_MAX_CONTENT_BYTES, default 65536)")
  .addOption(
    new Option(
      "--embedder <name>",
      "who turns memories into vectors (env MEMD_EMBEDDER, default auto: Ollama if it runs and has the model, else an installed ONNX model, else the static table distilled from the built-in model; local runs the full built-in model, asymmetric embeds memories with it and queries with the table; openai only when chosen; none turns vector search off)",
    ).choices([...EMBEDDER_CHOICES]),
  )
  .option("--vault <dir>", "the vault: every memory as a Markdown file, which the database can be rebuilt from (env MEMD_VAULT, default MEMD_HOME/vault)")
  .option("--no-vault", "keep no vault (env MEMD_VAULT=off)")
  .addHelpText(
    "after",
    `
Files under the state directory:
  memd.db     the SQLite database (WAL mode, synchronous=FULL: an acknowledged write survives a crash)
  memd.sock   the Unix socket (mode 0600)
  memd.pid    the running daemon's pid; one daemon per state directory
  token       bearer token for --listen (mode 0600, created on first use)
  logs/       memd.log, JSON lines with a request id per RPC
  vault/      every memory as a Markdown file (unless --vault names another directory or --no-vault)
  backups/    copies of the database taken before each schema migration

Embedding settings (environment):
  MEMD_EMBEDDER         auto | static | local | asymmetric | onnx | ollama | openai | none
  MEMD_ONNX_MODEL       a model pulled with \`memctl models pull\` (by name) or the directory of a
                        sentence-transformers ONNX export (default: the first model pulled)
  MEMD_HF_ENDPOINT      the Hugging Face hub models are pulled from, on request only (default https://huggingface.co)
  OLLAMA_HOST           Ollama's address (default http://127.0.0.1:11434)
  MEMD_OLLAMA_MODEL     Ollama embedding model (default nomic-embed-text, 768 dims)
  OPENAI_API_KEY        used only with MEMD_EMBEDDER=openai: a key alone never sends memories to a cloud
  MEMD_OPENAI_MODEL     default text-embedding-3-small (1536 dims)
  MEMD_OPENAI_BASE_URL  default https://api.openai.com

Lifecycle (environment):
  MEMD_HALF_LIVES       per-kind half-lives over the defaults, e.g. "episode=14d,trace=12h,idea=never"
                        (defaults: procedure 365d, preference 180d, decision 180d, fact 120d, context 90d,
                        task 14d, episode 7d, trace 1d, idea and rule never; rules are flagged for review)

Language model (environment; optional, off unless set):
  MEMD_LLM              none | ollama | openai: summarises consolidated clusters and adds staged
                        candidates to the transcript sweep; any failure falls back to the rules
  MEMD_LLM_MODEL        chat model (default llama3.2 for Ollama, gpt-4o-mini for OpenAI)
  MEMD_LLM_DAILY_TOKENS spend cap, input plus output tokens per UTC day (default 200000)
  MEMD_CLAUDE_HOME      Claude Code's user directory for skills and MEMORY.md (default ~/.claude)

Signals: SIGINT and SIGTERM stop accepting, finish in-flight requests and close the database.
Exit codes: 0 clean stop, 1 failed to start (already running, bad database), 2 invalid settings.`,
  );

program.parse();
const opts = program.opts<{ home?: string; listen?: string; logLevel?: string; maxContentBytes?: string; embedder?: string; vault?: string | false }>();

async function main(): Promise<number> {
  // Memories are private: every file the daemon creates is readable by this user only.
  process.umask(0o077);
  let config;
  try {
    config = loadConfig(readEnv(), opts);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`memd: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  let daemon;
  try {
    daemon = await startDaemon(config);
  } catch (error) {
    if (error instanceof AlreadyRunningError || error instanceof SchemaTooNewError) {
      process.stderr.write(`memd: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`memd: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const tcp = daemon.tcp ? ` and ${daemon.tcp.host}:${daemon.tcp.port}` : "";
  process.stderr.write(`memd: listening on ${daemon.socketPath}${tcp} (pid ${process.pid})\n`);
  const running = daemon;
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      running.logger.info({ signal }, "signal received");
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await running.close();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`memd: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
