import { describe, expect, it } from "vitest";
import { DEFAULT_HALF_LIVES } from "../lifecycle/half-lives.js";
import { ConfigError, isLoopbackHost, loadConfig, parseHalfLives, parseListenAddress } from "./config.js";
import { readEnv } from "./env.js";

describe("parseListenAddress", () => {
  it.each([
    ["127.0.0.1:7077", { host: "127.0.0.1", port: 7077 }],
    ["localhost:0", { host: "localhost", port: 0 }],
    ["[::1]:7077", { host: "::1", port: 7077 }],
    ["127.3.2.1:80", { host: "127.3.2.1", port: 80 }],
  ])("accepts the loopback address %s", (value, expected) => {
    expect(parseListenAddress(value)).toEqual(expected);
  });

  it.each(["0.0.0.0:7077", "192.168.1.5:7077", "[::]:7077", "example.com:80", "10.0.0.1:1"])(
    "refuses the non-loopback address %s",
    (value) => {
      expect(() => parseListenAddress(value)).toThrow(/refusing to listen/);
    },
  );

  it("explains the expected form when the value is malformed", () => {
    expect(() => parseListenAddress("7077")).toThrow(/HOST:PORT/);
    expect(() => parseListenAddress("127.0.0.1:99999")).toThrow(ConfigError);
  });
});

describe("isLoopbackHost", () => {
  it("knows loopback names and refuses look-alikes", () => {
    expect(isLoopbackHost("LOCALHOST")).toBe(true);
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("localhost.evil.com")).toBe(false);
    expect(isLoopbackHost("127.0.0.1.nip.io")).toBe(false);
  });
});

describe("loadConfig", () => {
  it("defaults to ~/.memd with a 64 KiB content limit", () => {
    const config = loadConfig({ userHome: "/home/maya" });
    expect(config).toMatchObject({
      home: "/home/maya/.memd",
      dbFile: "/home/maya/.memd/memd.db",
      socketPath: "/home/maya/.memd/memd.sock",
      maxContentBytes: 65536,
      listen: null,
      logLevel: "info",
    });
  });

  it("treats an empty MEMD_HOME as unset rather than the working directory", () => {
    expect(loadConfig({ home: "", userHome: "/home/maya" }).home).toBe("/home/maya/.memd");
  });

  it("lets command-line settings win over the environment", () => {
    const config = loadConfig({ home: "/env/home", maxContentBytes: "2048" }, { home: "/flag/home" });
    expect(config.home).toBe("/flag/home");
    expect(config.maxContentBytes).toBe(2048);
  });

  it("rejects a content limit that is not a number", () => {
    expect(() => loadConfig({ home: "/h", maxContentBytes: "lots" })).toThrow(/maxContentBytes/);
  });

  it("rejects a home whose socket path would be too long for a Unix socket", () => {
    expect(() => loadConfig({ home: `/${"x".repeat(120)}` })).toThrow(/shorter MEMD_HOME/);
  });
});

describe("half-lives", () => {
  it("overrides the defaults per kind with units", () => {
    const halfLives = parseHalfLives("episode=14d, trace=12h, idea=never");
    expect(halfLives.episode).toBe(14 * 86_400_000);
    expect(halfLives.trace).toBe(12 * 3_600_000);
    expect(halfLives.idea).toBe(Number.POSITIVE_INFINITY);
    expect(halfLives.fact).toBe(DEFAULT_HALF_LIVES.fact);
  });

  it.each(["episode=0d", "episode=-3d", "episode=soon", "ghost=3d"])("refuses %s with a clear message", (value) => {
    expect(() => parseHalfLives(value)).toThrow(ConfigError);
    expect(() => parseHalfLives(value)).toThrow(/MEMD_HALF_LIVES/);
  });
});

describe("language model settings", () => {
  it("default to no model, so that nothing is sent anywhere unless configured", () => {
    expect(loadConfig({ userHome: "/home/maya" }).llm).toMatchObject({ choice: "none", model: "", dailyTokens: 200_000 });
    expect(loadConfig({ userHome: "/home/maya", llm: "" }).llm.choice).toBe("none");
  });

  it("pick a small default model per provider, share Ollama's address and take a daily token cap", () => {
    const ollama = loadConfig(readEnv({ HOME: "/home/maya", MEMD_LLM: "ollama", OLLAMA_HOST: "10.0.0.5:11434", MEMD_LLM_DAILY_TOKENS: "5000" })).llm;
    expect(ollama).toMatchObject({ choice: "ollama", model: "llama3.2", ollamaHost: "http://10.0.0.5:11434", dailyTokens: 5000 });
    const openai = loadConfig(readEnv({ HOME: "/home/maya", MEMD_LLM: "openai", OPENAI_API_KEY: "sk-x", MEMD_LLM_MODEL: "gpt-4.1-mini" })).llm;
    expect(openai).toMatchObject({ choice: "openai", model: "gpt-4.1-mini", openaiApiKey: "sk-x", openaiBaseUrl: "https://api.openai.com" });
  });

  it("refuse OpenAI without a key, an unknown provider and a cap that is not a whole number", () => {
    expect(() => loadConfig({ userHome: "/h", llm: "openai" })).toThrow(/MEMD_LLM=openai needs an API key: set OPENAI_API_KEY/);
    expect(() => loadConfig({ userHome: "/h", llm: "claude" })).toThrow(/invalid setting llm/);
    expect(() => loadConfig({ userHome: "/h", llm: "ollama", llmDailyTokens: "lots" })).toThrow(/llmDailyTokens/);
    expect(() => loadConfig({ userHome: "/h", llm: "ollama", llmDailyTokens: "-1" })).toThrow(/llmDailyTokens/);
  });
});

describe("the injection record's retention", () => {
  it("keeps 30 days and 20,000 rows unless MEMD_INJECTIONS_KEEP_DAYS and MEMD_INJECTIONS_KEEP_ROWS say otherwise", () => {
    expect(loadConfig({ userHome: "/home/maya" }).injectionRetention).toEqual({ days: 30, rows: 20_000 });
    const chosen = loadConfig(readEnv({ HOME: "/home/maya", MEMD_INJECTIONS_KEEP_DAYS: "7", MEMD_INJECTIONS_KEEP_ROWS: "500" }));
    expect(chosen.injectionRetention).toEqual({ days: 7, rows: 500 });
  });

  it.each([["0", "3"], ["1.5", "3"], ["7", "0"], ["7", "many"]])("refuses %s days and %s rows with the setting named", (days, rows) => {
    expect(() => loadConfig(readEnv({ HOME: "/h", MEMD_INJECTIONS_KEEP_DAYS: days, MEMD_INJECTIONS_KEEP_ROWS: rows }))).toThrow(/invalid setting injectionsKeep(Days|Rows)/);
  });
});
