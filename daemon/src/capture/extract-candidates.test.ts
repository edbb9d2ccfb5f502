import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildMemory } from "../memory/new-memory.js";
import type { CaptureCandidate } from "./candidate.js";
import { extractCandidates } from "./extract-candidates.js";
import type { TranscriptEvent } from "./transcript-event.js";
import { parseTranscriptLine } from "./transcript-line.js";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../test/fixtures/transcripts");
const TRANSCRIPT = fs.readFileSync(path.join(FIXTURES, "session-auth-refactor.jsonl"), "utf8");
const EXPECTED = JSON.parse(fs.readFileSync(path.join(FIXTURES, "session-auth-refactor.expected.json"), "utf8")) as {
  project: { cwd: string };
  secrets_must_not_be_stored: { value: string }[];
};

function eventsOf(jsonl: string): TranscriptEvent[] {
  return jsonl.split("\n").flatMap((line, i) => {
    const parsed = line.trim() === "" ? null : parseTranscriptLine(line, i + 1);
    return parsed?.ok ? parsed.events : [];
  });
}

/** A transcript line in Claude Code's shape. */
function line(role: "user" | "assistant", content: unknown): string {
  return JSON.stringify({ type: role, sessionId: "s-1", cwd: "/work/app", message: { role, content } });
}

const found = extractCandidates(eventsOf(TRANSCRIPT), EXPECTED.project.cwd);
const ofKind = (kind: CaptureCandidate["kind"]) => found.filter((c) => c.kind === kind);
const everything = (c: CaptureCandidate) => [c.content, c.problem, c.solution, ...c.concepts, ...c.files].join("\n");

describe("extractCandidates on a real Claude Code session", () => {
  it("finds the three preferences the user stated, one per directive", () => {
    const preferences = ofKind("preference");
    expect(preferences).toHaveLength(3);
    expect(preferences.map((p) => p.line)).toEqual([3, 36, 36]);
    expect(preferences[0]?.content).toMatch(/^Always use pnpm in this repo, never npm or yarn: the lockfile is pnpm-lock\.yaml/);
    expect(preferences[1]?.content).toMatch(/^Named exports only, no `export default` in new files/);
    expect(preferences[2]?.content).toBe("Always run `pnpm typecheck && pnpm test` before you tell me something is done.");
    expect(preferences.every((p) => p.source === "user" && p.scope === "project")).toBe(true);
  });

  it("finds both decisions with their reasons and the alternatives they rejected", () => {
    const decisions = ofKind("decision");
    expect(decisions).toHaveLength(2);
    const [jose, postgres] = decisions;
    expect(jose?.content).toContain("Go with jose, not jsonwebtoken.");
    expect(jose?.content).toContain("jsonwebtoken depends on Node's crypto module, while jose runs on Web Crypto");
    expect(jose?.concepts).toEqual(["jose", "jsonwebtoken"]);
    expect(postgres?.content).toContain("Refresh tokens go in Postgres, hashed, not Redis");
    expect(postgres?.content).toContain("audit trail of revocations");
    expect(postgres?.concepts).toEqual(["Postgres", "Redis"]);
  });

  it("finds the bug fix as one episode: the failing run, the diagnosis and the edited file", () => {
    const episodes = ofKind("episode");
    expect(episodes).toHaveLength(1);
    const episode = episodes[0] as CaptureCandidate;
    expect(episode.line).toBe(23);
    expect(episode.problem).toContain("`pnpm test src/auth src/middleware` failed (exit code 1)");
    expect(episode.problem).toContain("accepts a freshly issued token");
    expect(episode.solution).toContain("`exp` claim is a NumericDate in seconds, but `Date.now()` is milliseconds");
    expect(episode.solution).toContain("Changed src/auth/tokens.ts.");
    expect(episode.files).toEqual(["src/auth/tokens.ts"]);
  });

  it("finds the port fact once, in the user's words", () => {
    const facts = ofKind("fact");
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ source: "user", line: 14 });
    expect(facts[0]?.content).toBe("The local Postgres runs in Docker on port 5433, not 5432; 5432 is the host's system Postgres, so don't touch it.");
  });

  it("ranks preferences first, then decisions, the episode and the fact, and stays within five inferred items", () => {
    expect(found.map((c) => c.kind)).toEqual(["preference", "preference", "preference", "decision", "decision", "episode", "fact"]);
  });

  it("turns no tool output, file content or bookkeeping line into a candidate", () => {
    const text = found.map(everything).join("\n");
    // Glob listing, the Read of requireAuth.ts, pnpm add output and vitest timings.
    expect(text).not.toContain("src/auth/passwords.ts");
    expect(text).not.toContain("res.status(401)");
    expect(text).not.toMatch(/resolved 418|Done in 2\.1s|Duration|Start at/);
    // The written files' contents (tokens.ts, the migration) and bookkeeping lines.
    expect(text).not.toMatch(/SignJWT|CREATE TABLE|ACCESS_TOKEN_TTL/);
    expect(text).not.toMatch(/Migrate acme-api auth to JWT|turn_duration|permissionMode|trackedFileBackups/);
    expect(found.every((c) => c.line !== 13 && c.line !== 41 && c.line !== 33)).toBe(true);
  });

  it("leaves no secret in a memory built from any candidate", () => {
    const stored = found.map((c) => buildMemory({ ...c, project: "acme-api", provenance: "distilled" }, "ID", 0, { maxContentBytes: 65536 }));
    const text = JSON.stringify(stored);
    for (const { value } of EXPECTED.secrets_must_not_be_stored) expect(text).not.toContain(value);
  });
});

describe("extractCandidates on small sessions", () => {
  it("finds nothing in a session without directives, choices, facts or fixes", () => {
    const transcript = [
      line("user", "Rename the onboarding wizard's third step and make its illustration load lazily."),
      line("assistant", [{ type: "text", text: "Done: the step is now called Profile and the image loads lazily." }]),
      line("user", "It always fails on CI though. Did you run the tests?"),
    ].join("\n");
    expect(extractCandidates(eventsOf(transcript), "/work/app")).toEqual([]);
  });

  it("skips malformed lines and still reads the rest", () => {
    const transcript = ["{not json", "[1, 2]", line("user", "From now on write commit messages in the imperative mood."), "plain text"].join("\n");
    const candidates = extractCandidates(eventsOf(transcript), "/work/app");
    expect(candidates.map((c) => c.content)).toEqual(["Write commit messages in the imperative mood."]);
  });

  it("redacts a secret inside a stated preference when the memory is built", () => {
    const token = "ghp_XDX2sIDNA8ShjAA1R3FXitxvfvGzWAQAHwke";
    const transcript = line("user", `Always call the API with GH_TOKEN=${token} in this repo.`);
    const [pref] = extractCandidates(eventsOf(transcript), "/work/app");
    expect(pref?.kind).toBe("preference");
    const memory = buildMemory({ ...(pref as CaptureCandidate), project: "app", provenance: "human" }, "ID", 0, { maxContentBytes: 65536 });
    expect(memory.content).not.toContain(token);
    expect(memory.content).toContain("[REDACTED:");
  });

  it("takes always and never as a rule only where they address the agent", () => {
    const transcript = [
      line("user", "The build always breaks on Mondays. I've never seen that error before."),
      line("user", "Remember to always squash merge. Please never force-push to main."),
    ].join("\n");
    const contents = extractCandidates(eventsOf(transcript), "/work/app").map((c) => c.content);
    expect(contents).toEqual(["Remember to always squash merge.", "Never force-push to main."]);
  });

  it("puts a preference meant for every project in global scope", () => {
    const [pref] = extractCandidates(eventsOf(line("user", "In all my projects, always answer in British English.")), "/work/app");
    expect(pref).toMatchObject({ kind: "preference", scope: "global", content: "In all my projects, always answer in British English." });
  });

  it("does not take a compaction summary or a subagent's prompt for the user's words", () => {
    const summary = JSON.stringify({ type: "user", isCompactSummary: true, message: { role: "user", content: "Always use tabs from now on." } });
    const sidechain = JSON.stringify({ type: "user", isSidechain: true, message: { role: "user", content: "Never touch the README from now on." } });
    expect(extractCandidates(eventsOf([summary, sidechain].join("\n")), "/work/app")).toEqual([]);
  });

  it("needs the same command to pass again after an edit before it calls a failure an episode", () => {
    const use = (id: string, name: string, input: Record<string, string>) => line("assistant", [{ type: "tool_use", id, name, input }]);
    const result = (id: string, isError: boolean, content: string) => line("user", [{ type: "tool_result", tool_use_id: id, is_error: isError, content }]);
    const failedThenOther = [
      use("t1", "Bash", { command: "make test" }),
      result("t1", true, "Exit code 2\nFAIL parser_test.go: expected 3, got 4"),
      use("t2", "Edit", { file_path: "/work/app/parser.go" }),
      result("t2", false, "ok"),
      use("t3", "Bash", { command: "make lint" }),
      result("t3", false, "ok"),
    ];
    expect(extractCandidates(eventsOf(failedThenOther.join("\n")), "/work/app")).toEqual([]);

    const fixed = [...failedThenOther, use("t4", "Bash", { command: "make test" }), result("t4", false, "PASS")];
    const [episode] = extractCandidates(eventsOf(fixed.join("\n")), "/work/app");
    expect(episode).toMatchObject({ kind: "episode", files: ["parser.go"], concepts: ["make"] });
    expect(episode?.problem).toBe("`make test` failed (exit code 2): FAIL parser_test.go: expected 3, got 4");
  });

  it("reads user and assistant messages from a Codex rollout", () => {
    const meta = JSON.stringify({ type: "session_meta", payload: { id: "codex-1", cwd: "/work/app" } });
    const context = JSON.stringify({ type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>Always obey the sandbox.</environment_context>" }] } });
    const prompt = JSON.stringify({ type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "Never use sudo in scripts here." }] } });
    const candidates = extractCandidates(eventsOf([meta, context, prompt].join("\n")), "/work/app");
    expect(candidates.map((c) => c.content)).toEqual(["Never use sudo in scripts here."]);
  });
});

describe("failure traces from a transcript", () => {
  const events: TranscriptEvent[] = [
    { kind: "tool-use", id: "c1", name: "Bash", command: "ls /nonexistent-dir-xyz", filePath: "", line: 3 },
    { kind: "tool-result", toolUseId: "c1", isError: true, outputHead: "Exit code 2\nls: cannot access '/nonexistent-dir-xyz': No such file or directory", line: 4 },
    { kind: "tool-use", id: "c2", name: "Bash", command: "curl -u admin:hunter2-not-a-real-one https://example.test", filePath: "", line: 5 },
    { kind: "tool-result", toolUseId: "c2", isError: false, outputHead: "Exit code 0\nok", line: 6 },
  ];

  it("makes a trace of each failed shell command only when asked (Codex's rollout), redacted like a hook's", () => {
    expect(extractCandidates(events, "/work/app").filter((c) => c.kind === "trace")).toEqual([]);
    const traces = extractCandidates(events, "/work/app", { shellFailures: true }).filter((c) => c.kind === "trace");
    expect(traces).toMatchObject([
      { content: "Command failed: ls /nonexistent-dir-xyz\nExit code 2\nls: cannot access '/nonexistent-dir-xyz': No such file or directory", concepts: ["ls"], source: "tools", line: 4 },
    ]);
  });
});

describe("prompt lines that start with a bracket", () => {
  it("keeps a statement that starts with [ and still drops pasted JSON", () => {
    const transcript = [line("user", "[WIP] from now on always run the migrations before the tests.\n{\"port\": 5433}\n[1, 2, 3]")].join("\n");
    expect(extractCandidates(eventsOf(transcript), "/work/app").map((c) => c.content)).toEqual(["[WIP] from now on always run the migrations before the tests."]);
  });
});
