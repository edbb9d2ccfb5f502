import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { DAY_MS, DEFAULT_HALF_LIVES, type HalfLives, validateHalfLives } from "../lifecycle/half-lives.js";
import type { MemdEnv } from "./env.js";

/** Everything the daemon needs to know at start-up, validated, with defaults applied. */
export interface Config {
  /** The state directory: database, socket, logs, token. */
  home: string;
  dbFile: string;
  socketPath: string;
  logDir: string;
  backupDir: string;
  pidFile: string;
  tokenFile: string;
  /** The token that may call the agents' hook routes on TCP and nothing else, for agents' settings files. */
  hookTokenFile: string;
  /** Loopback TCP address to serve besides the socket, if any (--listen or MEMD_LISTEN). */
  listen: ListenAddress | null;
  /** Where memctl setup records the address to serve when neither names one (see listen-file.ts). */
  listenFile: string;
  logLevel: LogLevel;
  maxContentBytes: number;
  embeddings: EmbeddingConfig;
  /** How fast each kind of memory fades, in ms (MEMD_HALF_LIVES overrides the defaults). */
  halfLives: HalfLives;
  /** Claude Code's user directory, whose skills/ holds the user's skills (MEMD_CLAUDE_HOME, default ~/.claude). */
  claudeHome: string;
  /** The optional language model for consolidation summaries and transcript distillation (MEMD_LLM*). */
  llm: LlmConfig;
  /** The vault's directory (--vault, MEMD_VAULT, default MEMD_HOME/vault), or null when it is off (--no-vault, MEMD_VAULT=off). */
  vault: string | null;
  /** MEMD_HUB_URL: the hub to sync with, in place of the one memctl hub connect recorded; undefined when unset. */
  hubUrl: string | undefined;
  /** How long, and how many rows, the record of injections is kept (MEMD_INJECTIONS_KEEP_DAYS, MEMD_INJECTIONS_KEEP_ROWS). */
  injectionRetention: InjectionRetention;
}

export interface InjectionRetention {
  days: number;
  rows: number;
}

/** A month of a busy user's sessions: some 20 prompts an hour, eight hours a day, with briefings and recalls, fit in the rows. */
export const DEFAULT_INJECTION_RETENTION: InjectionRetention = { days: 30, rows: 20_000 };

export const EMBEDDER_CHOICES = ["auto", "static", "local", "asymmetric", "onnx", "ollama", "openai", "none"] as const;
export type EmbedderChoice = (typeof EMBEDDER_CHOICES)[number];

export interface EmbeddingConfig {
  /**
   * auto: Ollama when it answers and has the model, else an installed ONNX model, else the static
   * table distilled from USE-lite. local: the full USE-lite encoder; asymmetric: memories by it,
   * queries by the static table. OpenAI only when chosen.
   */
  choice: EmbedderChoice;
  /** MEMD_HOME/models: where `memctl models pull` puts ONNX models. */
  modelsDir: string;
  /** MEMD_ONNX_MODEL: a known model's name or a directory holding an ONNX export; undefined takes the first installed. */
  onnxModel: string | undefined;
  /** MEMD_HF_ENDPOINT: the Hugging Face hub that models are pulled from, on request only. */
  modelsHub: string;
  ollamaHost: string;
  ollamaModel: string;
  /** Kept out of logs; only used when choice is "openai". */
  openaiApiKey: string | undefined;
  openaiBaseUrl: string;
  openaiModel: string;
}

export const LLM_CHOICES = ["none", "ollama", "openai"] as const;
export type LlmChoice = (typeof LLM_CHOICES)[number];

/** The chat model each provider uses unless MEMD_LLM_MODEL names another: small, cheap, good enough to summarise. */
export const DEFAULT_LLM_MODELS: Record<Exclude<LlmChoice, "none">, string> = { ollama: "llama3.2", openai: "gpt-4o-mini" };
/** Tokens (prompt and completion) per UTC day across every use: about 40 consolidations or sweeps of a long session. */
export const DEFAULT_LLM_DAILY_TOKENS = 200_000;

export interface LlmConfig {
  /** none (the default): every summary and sweep is the deterministic one, and nothing is sent anywhere. */
  choice: LlmChoice;
  /** The chat model; empty when choice is none. */
  model: string;
  /** The spend cap: no call is made that would take today's (UTC) tokens past it. */
  dailyTokens: number;
  /** The same OLLAMA_HOST the embedder uses. */
  ollamaHost: string;
  /** Kept out of logs; only used when choice is "openai". */
  openaiApiKey: string | undefined;
  openaiBaseUrl: string;
}

export interface ListenAddress {
  host: string;
  port: number;
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Settings given on the command line; they win over the environment. */
export interface ConfigOverrides {
  home?: string;
  listen?: string;
  logLevel?: string;
  maxContentBytes?: string;
  embedder?: string;
  /** A directory, or false for --no-vault. */
  vault?: string | false;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

// The longest Unix socket path Linux accepts is 107 bytes (macOS: 103).
const MAX_SOCKET_PATH = 103;

const schema = z.object({
  home: z.string().min(1),
  listen: z.string().optional(),
  logLevel: z.enum(LOG_LEVELS).default("info"),
  maxContentBytes: z.coerce
    .number()
    .int()
    .min(1024, "must be at least 1024")
    .max(16 * 1024 * 1024, "must be at most 16 MiB")
    .default(64 * 1024),
  embedder: z.enum(EMBEDDER_CHOICES).default("auto"),
  ollamaHost: z.string().url("must be a URL such as http://127.0.0.1:11434").default("http://127.0.0.1:11434"),
  ollamaModel: z.string().min(1).default("nomic-embed-text"),
  openaiBaseUrl: z.string().url("must be a URL").default("https://api.openai.com"),
  openaiModel: z.string().min(1).default("text-embedding-3-small"),
  hfEndpoint: z.string().url("must be a URL such as https://huggingface.co").default("https://huggingface.co"),
  llm: z.enum(LLM_CHOICES).default("none"),
  llmModel: z.string().min(1).optional(),
  llmDailyTokens: z.coerce.number().int("must be a whole number of tokens").min(0, "must be 0 or more").default(DEFAULT_LLM_DAILY_TOKENS),
  injectionsKeepDays: z.coerce.number().int("must be a whole number of days").min(1, "must be at least 1").max(3650, "must be at most 3650").default(DEFAULT_INJECTION_RETENTION.days),
  injectionsKeepRows: z.coerce.number().int("must be a whole number of rows").min(1, "must be at least 1").max(10_000_000, "must be at most 10000000").default(DEFAULT_INJECTION_RETENTION.rows),
});

export function loadConfig(env: MemdEnv, overrides: ConfigOverrides = {}): Config {
  // Empty values count as unset: resolving "" would make the working directory the state directory.
  const home = path.resolve(overrides.home || env.home || path.join(env.userHome || os.homedir(), ".memd"));
  const parsed = schema.safeParse({
    home,
    listen: overrides.listen ?? env.listen,
    logLevel: overrides.logLevel ?? env.logLevel,
    maxContentBytes: overrides.maxContentBytes ?? env.maxContentBytes,
    embedder: overrides.embedder ?? env.embedder,
    ollamaHost: withScheme(env.ollamaHost),
    ollamaModel: env.ollamaModel,
    openaiBaseUrl: env.openaiBaseUrl,
    openaiModel: env.openaiModel,
    hfEndpoint: env.hfEndpoint || undefined,
    llm: env.llm || undefined,
    llmModel: env.llmModel || undefined,
    llmDailyTokens: env.llmDailyTokens || undefined,
    injectionsKeepDays: env.injectionsKeepDays || undefined,
    injectionsKeepRows: env.injectionsKeepRows || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid setting ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "unknown"}`);
  }
  const socketPath = path.join(home, "memd.sock");
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new ConfigError(
      `the socket path ${socketPath} is longer than ${MAX_SOCKET_PATH} bytes, which Unix sockets do not allow: choose a shorter MEMD_HOME`,
    );
  }
  return {
    home,
    dbFile: path.join(home, "memd.db"),
    socketPath,
    logDir: path.join(home, "logs"),
    backupDir: path.join(home, "backups"),
    pidFile: path.join(home, "memd.pid"),
    tokenFile: path.join(home, "token"),
    hookTokenFile: path.join(home, "hook-token"),
    listen: parsed.data.listen ? parseListenAddress(parsed.data.listen) : null,
    listenFile: path.join(home, "listen"),
    logLevel: parsed.data.logLevel,
    maxContentBytes: parsed.data.maxContentBytes,
    halfLives: parseHalfLives(env.halfLives),
    claudeHome: path.resolve(env.claudeHome || path.join(env.userHome || os.homedir(), ".claude")),
    embeddings: {
      choice: parsed.data.embedder,
      modelsDir: path.join(home, "models"),
      onnxModel: env.onnxModel?.trim() || undefined,
      modelsHub: parsed.data.hfEndpoint,
      ollamaHost: parsed.data.ollamaHost,
      ollamaModel: parsed.data.ollamaModel,
      openaiApiKey: env.openaiApiKey,
      openaiBaseUrl: parsed.data.openaiBaseUrl,
      openaiModel: parsed.data.openaiModel,
    },
    llm: llmConfig(parsed.data, env.openaiApiKey),
    vault: vaultDir(home, overrides.vault, env.vault),
    hubUrl: env.hubUrl?.trim() ? hubUrl(env.hubUrl.trim(), "MEMD_HUB_URL") : undefined,
    injectionRetention: { days: parsed.data.injectionsKeepDays, rows: parsed.data.injectionsKeepRows },
  };
}

/** Refuses an OpenAI chat model without a key at start-up, rather than failing every call later. */
function llmConfig(
  data: { llm: LlmChoice; llmModel?: string | undefined; llmDailyTokens: number; ollamaHost: string; openaiBaseUrl: string },
  openaiApiKey: string | undefined,
): LlmConfig {
  if (data.llm === "openai" && !openaiApiKey?.trim()) {
    throw new ConfigError("MEMD_LLM=openai needs an API key: set OPENAI_API_KEY, or choose MEMD_LLM=ollama or none");
  }
  return {
    choice: data.llm,
    model: data.llm === "none" ? "" : (data.llmModel ?? DEFAULT_LLM_MODELS[data.llm]),
    dailyTokens: data.llmDailyTokens,
    ollamaHost: data.ollamaHost,
    openaiApiKey,
    openaiBaseUrl: data.openaiBaseUrl,
  };
}

const DURATION_UNITS: Record<string, number> = { h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS, y: 365 * DAY_MS };

/** Parses "episode=14d,trace=12h,idea=never" over the defaults; zero, negative and malformed values are refused. */
export function parseHalfLives(value: string | undefined): HalfLives {
  if (value === undefined || value.trim() === "") return DEFAULT_HALF_LIVES;
  const partial: Record<string, number> = {};
  for (const entry of value.split(",")) {
    const match = /^\s*([a-z]+)\s*=\s*(never|(-?[\d.]+)\s*([hdwy]))\s*$/.exec(entry);
    if (!match) {
      throw new ConfigError(`MEMD_HALF_LIVES entry "${entry.trim()}" is not KIND=DURATION, e.g. episode=14d (units h, d, w, y, or never)`);
    }
    const [, kind, whole, amount, unit] = match;
    partial[kind as string] = whole === "never" ? Number.POSITIVE_INFINITY : Number(amount) * (DURATION_UNITS[unit as string] as number);
  }
  try {
    return validateHalfLives(partial);
  } catch (error) {
    throw new ConfigError(`MEMD_HALF_LIVES: ${(error as Error).message}`);
  }
}

/** OLLAMA_HOST is often given as host:port, as the ollama CLI accepts. */
function withScheme(host: string | undefined): string | undefined {
  if (host === undefined || host === "") return undefined;
  return /^https?:\/\//.test(host) ? host : `http://${host}`;
}

const LOOPBACK_NAMES = new Set(["localhost", "::1"]);

/** True for names and addresses that can only be reached from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return LOOPBACK_NAMES.has(bare) || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** Parses HOST:PORT and refuses any address other machines could reach. */
export function parseListenAddress(value: string): ListenAddress {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(value.trim());
  if (!match) {
    throw new ConfigError(`--listen takes HOST:PORT, for example 127.0.0.1:7077; got "${value}"`);
  }
  const host = (match[1] as string).replace(/^\[(.*)\]$/, "$1");
  const port = Number(match[2]);
  if (port > 65535) throw new ConfigError(`port ${port} is out of range (0-65535)`);
  if (!isLoopbackHost(host)) {
    throw new ConfigError(
      `refusing to listen on ${host}: memd serves loopback only (127.0.0.1, ::1 or localhost), because your memories must not be reachable from the network`,
    );
  }
  return { host, port };
}

/** --vault DIR or --no-vault, else MEMD_VAULT (a directory, or "off"), else MEMD_HOME/vault. */
function vaultDir(home: string, override: string | false | undefined, env: string | undefined): string | null {
  if (override === false) return null;
  const chosen = override || env?.trim() || "";
  if (chosen.toLowerCase() === "off") return null;
  const dir = path.resolve(chosen || path.join(home, "vault"));
  if (dir === home) throw new ConfigError(`the vault cannot be the state directory itself (${home}): choose a directory of its own, such as ${path.join(home, "vault")}`);
  return dir;
}

/** A hub's URL as PostgreSQL takes it (postgres:// or postgresql://, with a host); `source` names where it came from. */
export function hubUrl(value: string, source: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${source} is not a URL: give postgres://user:password@host:port/database`);
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new ConfigError(`${source} must be a postgres:// URL (it is ${parsed.protocol}//…): give postgres://user:password@host:port/database`);
  }
  if (!parsed.hostname || !parsed.username) throw new ConfigError(`${source} names no ${parsed.hostname ? "user" : "host"}: give postgres://user:password@host:port/database`);
  return value;
}
