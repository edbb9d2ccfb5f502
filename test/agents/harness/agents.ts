import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The suite's own install of the agents (npm ci from test/agents/package-lock.json). */
export const AGENTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const AGENT_BIN_DIR = path.join(AGENTS_DIR, "node_modules", ".bin");

/** The model name every agent is told to use; the scripted server answers to any. */
export const MODEL = "claude-sonnet-4-5";
export const GEMINI_MODEL = "gemini-2.5-pro";
export const OPENAI_MODEL = "gpt-5";

/** Where a test's agent lives: its HOME, the project it works in, and the scripted model's port. */
export interface AgentPlace {
  home: string;
  project: string;
  modelPort: number;
}

/** How to run one agent headless against the scripted model, with the user's config it needs first. */
export interface AgentProfile {
  /** memctl setup's target name. */
  target: "claude" | "codex" | "gemini" | "copilot" | "opencode";
  /** The agent's npm package, as pinned in test/agents/package.json. */
  pkg: string;
  bin: string;
  /** The config a user of the agent has before installing memd: what points it at the model. */
  prepare(place: AgentPlace): void;
  env(place: AgentPlace): Record<string, string>;
  args(prompt: string, place: AgentPlace): string[];
}

const writeFile = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
const writeJson = (file: string, value: unknown) => writeFile(file, `${JSON.stringify(value, null, 2)}\n`);

/**
 * Claude Code: ANTHROPIC_BASE_URL with a dummy key; onboarding done and the project trusted in
 * ~/.claude.json; non-essential traffic off. Headless with -p and stream-json.
 */
const claude: AgentProfile = {
  target: "claude",
  pkg: "@anthropic-ai/claude-code",
  bin: "claude",
  prepare({ home, project }) {
    writeJson(path.join(home, ".claude.json"), { hasCompletedOnboarding: true, projects: { [project]: { hasTrustDialogAccepted: true } } });
    fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
  },
  env: ({ modelPort }) => ({
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${modelPort}`,
    ANTHROPIC_API_KEY: "scripted-model-key",
    ANTHROPIC_MODEL: MODEL,
    ANTHROPIC_SMALL_FAST_MODEL: MODEL,
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  }),
  args: (prompt) => ["-p", prompt, "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash,Read,Write,Edit,mcp__memd"],
};

/**
 * Codex: a model provider on the scripted server (Responses wire API) with a dummy key, no
 * approvals, no sandbox, the project trusted. Headless with `codex exec --json`.
 */
const codex: AgentProfile = {
  target: "codex",
  pkg: "@openai/codex",
  bin: "codex",
  prepare({ home, project, modelPort }) {
    writeFile(
      path.join(home, ".codex", "config.toml"),
      [
        `model = "${OPENAI_MODEL}"`,
        'model_provider = "scripted"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        "check_for_update_on_startup = false",
        "",
        "[model_providers.scripted]",
        'name = "scripted"',
        `base_url = "http://127.0.0.1:${modelPort}/v1"`,
        'env_key = "SCRIPTED_MODEL_KEY"',
        'wire_api = "responses"',
        "",
        `[projects."${project}"]`,
        'trust_level = "trusted"',
        "",
      ].join("\n"),
    );
  },
  env: () => ({ SCRIPTED_MODEL_KEY: "scripted-model-key" }),
  args: (prompt) => ["exec", "--json", "--skip-git-repo-check", prompt],
};

/**
 * Gemini CLI: GOOGLE_GEMINI_BASE_URL with a dummy key, the API-key auth chosen (without it -p
 * exits 41), folder trust, telemetry and usage statistics off. Headless with -p, every tool allowed.
 */
const gemini: AgentProfile = {
  target: "gemini",
  pkg: "@google/gemini-cli",
  bin: "gemini",
  prepare({ home }) {
    writeJson(path.join(home, ".gemini", "settings.json"), {
      security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      model: { name: GEMINI_MODEL },
    });
  },
  env: ({ modelPort }) => ({ GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${modelPort}`, GEMINI_API_KEY: "scripted-model-key", GEMINI_MODEL }),
  args: (prompt) => ["-p", prompt, "--approval-mode", "yolo"],
};

/**
 * Copilot CLI in its offline bring-your-own-provider mode (no GitHub login): the scripted
 * server as an Anthropic provider. Headless with -p and --allow-all.
 */
const copilot: AgentProfile = {
  target: "copilot",
  pkg: "@github/copilot",
  bin: "copilot",
  prepare({ home }) {
    fs.mkdirSync(path.join(home, ".copilot"), { recursive: true });
  },
  env: ({ modelPort }) => ({
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${modelPort}`,
    COPILOT_PROVIDER_TYPE: "anthropic",
    COPILOT_PROVIDER_API_KEY: "scripted-model-key",
    COPILOT_MODEL: MODEL,
  }),
  args: (prompt) => ["-p", prompt, "--allow-all"],
};

/** The model OpenCode is given: a custom provider's model, so that no provider-specific handling applies. */
export const OPENCODE_MODEL = "scripted/scripted-coder";

/**
 * OpenCode: a custom OpenAI-compatible provider on the scripted server (chat completions) with
 * a dummy key; update checks, sharing, the models.dev catalogue, LSP downloads and the default
 * npm plugins off. OpenCode installs @opencode-ai/plugin into its config folder at start (with
 * npm, on every start until it is there): the folder is given as that install leaves it, so
 * that OpenCode does not wait on a registry the namespace cannot reach. Headless with
 * `opencode run --auto` (tools approved).
 */
const opencode: AgentProfile = {
  target: "opencode",
  pkg: "opencode-ai",
  bin: "opencode",
  prepare({ home, modelPort }) {
    const dir = path.join(home, ".config", "opencode");
    writeJson(path.join(dir, "opencode.json"), {
      $schema: "https://opencode.ai/config.json",
      autoupdate: false,
      share: "disabled",
      provider: {
        scripted: {
          npm: "@ai-sdk/openai-compatible",
          name: "Scripted model",
          options: { baseURL: `http://127.0.0.1:${modelPort}/v1`, apiKey: "scripted-model-key" },
          models: { "scripted-coder": { name: "Scripted coder", tool_call: true } },
        },
      },
      model: OPENCODE_MODEL,
      small_model: OPENCODE_MODEL,
    });
    const installed = { "@opencode-ai/plugin": "1.18.33" };
    writeJson(path.join(dir, "package.json"), { dependencies: installed });
    writeJson(path.join(dir, "package-lock.json"), { lockfileVersion: 3, packages: { "": { dependencies: installed } } });
    fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  },
  env: () => ({
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
  }),
  // `opencode run` puts each message argument that holds a space in quotes: the words go one by one.
  args: (prompt) => ["run", "--auto", ...prompt.split(" ")],
};

export const AGENTS = { claude, codex, gemini, copilot, opencode } as const;
export type AgentName = keyof typeof AGENTS;
