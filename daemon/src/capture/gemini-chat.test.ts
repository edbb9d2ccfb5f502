import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CaptureCandidate } from "./candidate.js";
import { extractCandidates } from "./extract-candidates.js";
import { readTranscript } from "./read-transcript.js";
import type { TranscriptEvent, TranscriptToolResult, TranscriptToolUse } from "./transcript-event.js";
import { parseTranscriptLine } from "./transcript-line.js";
import { AUTH_FIX_TEXTS, textsOf, transcriptFixture } from "../../../test/helpers/transcript-fixture.js";

const { file: FIXTURE, lines: LINES } = transcriptFixture("gemini-transcript.jsonl");
const ROOT = "/home/maya/code/acme-api";
const SHELL_1 = "run_shell_command-1796117467210-a3f9c2";
const EDIT = "replace-1796117476120-b71e04";
const SHELL_2 = "run_shell_command-1796117481377-c58d13";

/** The fixture's line numbers, found by what they hold. */
const lastLineWith = (needle: string) => LINES.findLastIndex((l) => l.includes(needle)) + 1;
const texts = textsOf;
const uses = (events: readonly TranscriptEvent[]) => events.filter((e): e is TranscriptToolUse => e.kind === "tool-use");
const results = (events: readonly TranscriptEvent[]) => events.filter((e): e is TranscriptToolResult => e.kind === "tool-result");

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-gemini-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, lines: readonly unknown[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`);
  return file;
}

const header = { sessionId: "s-gem", projectHash: "ab12", startTime: "2026-12-01T09:00:00.000Z", lastUpdated: "2026-12-01T09:00:00.000Z" };
const user = (id: string, text: string, extra: Record<string, unknown> = {}) => ({ id, timestamp: "2026-12-01T09:00:01.000Z", type: "user", content: [{ text }], ...extra });
const gemini = (id: string, content: string, toolCalls?: unknown[]) => ({ id, timestamp: "2026-12-01T09:00:02.000Z", type: "gemini", content, ...(toolCalls ? { toolCalls } : {}) });
const shellCall = (id: string, command: string, output: string, status = "success") => ({
  id,
  name: "run_shell_command",
  args: { command },
  result: [{ functionResponse: { id, name: "run_shell_command", response: { output } } }],
  status,
});

describe("Gemini CLI's hook context in the first prompt", () => {
  it("reads the user's words after the <hook_context> block Gemini put in front of them (gemini -p has no other prompt)", async () => {
    const prompt = "<hook_context>Long-term memory from memd for project api:\n- decision: We deploy with Argo CD [01M8XMJA4HH76Y338PD1MNW17K]</hook_context>\n\nFrom now on always use pnpm instead of npm in this repository.";
    const read = await readTranscript(write("chat.jsonl", [header, user("u1", prompt), gemini("g1", "Understood.")]));
    expect(texts(read.events)).toEqual([
      ["user", "From now on always use pnpm instead of npm in this repository."],
      ["assistant", "Understood."],
    ]);
    expect(extractCandidates(read.events, ROOT).map((c: CaptureCandidate) => c.content)).toEqual(["Always use pnpm instead of npm in this repository."]);
  });
});

describe("readTranscript on a Gemini CLI chat recording", () => {
  it("takes the session id from the header line; the recording names no working directory", async () => {
    const read = await readTranscript(FIXTURE);
    expect(read).toMatchObject({ sessionId: "5b0f3c1e-8d2a-4f6b-9c7e-2a1d4e8f6b03", cwd: "", linesRead: LINES.length, malformedLines: 0 });
  });

  it("reads each message once, from its last copy, and nothing a rewind took back", async () => {
    const { events } = await readTranscript(FIXTURE);
    expect(texts(events)).toEqual(AUTH_FIX_TEXTS);
    // The first reply is written three times (text, tokens, tool call): its events are the last copy's.
    expect(LINES.filter((l) => l.includes('"id":"9e4c1a2b-6d7f-4a3e-b5c8-1f0e2d3c4b5a"'))).toHaveLength(3);
    expect(uses(events).find((u) => u.id === SHELL_1)?.line).toBe(lastLineWith('"id":"9e4c1a2b-6d7f-4a3e-b5c8-1f0e2d3c4b5a"'));
    expect(JSON.stringify(events)).not.toMatch(/squash/);
  });

  it("does not read the tool results Gemini records as user messages as prompts", async () => {
    const responses = LINES.map((l, i) => [l, i + 1] as const).filter(([l]) => l.includes('"type":"user","content":[{"functionResponse"'));
    expect(responses).toHaveLength(3);
    for (const [line, no] of responses) expect(parseTranscriptLine(line, no)).toMatchObject({ ok: true, events: [] });
    const { events } = await readTranscript(FIXTURE);
    expect(texts(events).filter(([role]) => role === "user").join("\n")).not.toMatch(/Exit Code|untrusted_context|Successfully modified/);
  });

  it("reads shell calls as Bash with the command, edits with the file, and the exit code from the output", async () => {
    const { events } = await readTranscript(FIXTURE);
    expect(uses(events).map((u) => [u.id, u.name, u.command, u.filePath])).toEqual([
      [SHELL_1, "Bash", "pnpm test src/auth", ""],
      [EDIT, "Edit", "", `${ROOT}/src/auth/tokens.ts`],
      [SHELL_2, "Bash", "pnpm test src/auth", ""],
    ]);
    const resultOf = (id: string) => results(events).find((r) => r.toolUseId === id);
    expect(resultOf(SHELL_1)?.isError).toBe(true);
    expect(resultOf(SHELL_1)?.outputHead).toMatch(/^Exit code 1\n> acme-api@0\.14\.2 test/);
    expect(resultOf(SHELL_1)?.outputHead).not.toMatch(/untrusted_context|PGID|Exit Code: 1|^Output:/m);
    expect(resultOf(EDIT)).toMatchObject({ isError: false, outputHead: expect.stringMatching(/^Successfully modified file/) });
    // Since v0.27 a command that exits 0 has no Exit Code line.
    expect(resultOf(SHELL_2)).toMatchObject({ isError: false, outputHead: expect.stringMatching(/^> acme-api/) });
  });

  it("finds the failing test, the fix and the passing rerun as one episode, and the user's standing rule", async () => {
    const read = await readTranscript(FIXTURE);
    const found = extractCandidates(read.events, read.cwd || ROOT);
    const episodes = found.filter((c) => c.kind === "episode");
    expect(episodes).toHaveLength(1);
    const episode = episodes[0] as CaptureCandidate;
    expect(episode).toMatchObject({ files: ["src/auth/tokens.ts"], concepts: ["pnpm"], line: lastLineWith('"id":"9e4c1a2b-6d7f-4a3e-b5c8-1f0e2d3c4b5a"') });
    expect(episode.problem).toMatch(/^`pnpm test src\/auth` failed \(exit code 1\): FAIL src\/auth\/__tests__\/tokens\.test\.ts > verifyAccessToken/);
    expect(episode.solution).toContain("tokens are now signed with JWT_SIGNING_KEY");
    expect(episode.solution).toContain("Changed src/auth/tokens.ts.");
    expect(found.filter((c) => c.kind === "preference").map((p) => p.content)).toEqual(["Run the auth tests before you say a fix is done."]);
  });
});

describe("readTranscript on other Gemini CLI records", () => {
  it("drops everything read when a rewind names a message it does not hold, as Gemini's loader does", async () => {
    const read = await readTranscript(write("r.jsonl", [header, user("u1", "first"), gemini("g1", "reply"), { $rewindTo: "never-read" }, user("u2", "second")]));
    expect(texts(read.events)).toEqual([["user", "second"]]);
  });

  it("takes a $set.messages checkpoint as the whole conversation, and later copies of its messages replace them", async () => {
    const read = await readTranscript(
      write("c.jsonl", [
        header,
        user("u1", "Please keep the old wording."),
        gemini("g1", "old reply"),
        { $set: { lastUpdated: "x", messages: [user("s0", "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n</session_context>"), user("u1", "Please keep the old wording."), gemini("g1", "reply, masked")] } },
        gemini("g1", "reply, final"),
        user("u3", "<state_snapshot>\n<overall_goal>Always use tabs.</overall_goal>\n</state_snapshot>"),
        user("u4", "This is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Monday."),
      ]),
    );
    expect(texts(read.events)).toEqual([
      ["user", "Please keep the old wording."],
      ["assistant", "reply, final"],
    ]);
  });

  it("reads the prompt as typed: displayContent when present, and never the files an @path pulled in", async () => {
    const events = (await readTranscript(
      write("d.jsonl", [
        header,
        { ...user("u1", "unused"), content: [{ text: "Fix @src/a.ts" }, { text: "\n--- Content from referenced files ---" }, { text: "\nContent from @src/a.ts:\n" }, { text: "// Always use var." }] },
        { ...user("u2", "unused"), content: [{ text: "expanded prompt" }], displayContent: [{ text: "What I typed." }] },
        { ...user("u3", "unused"), content: "A plain string prompt." },
      ]),
    )).events;
    expect(texts(events)).toEqual([
      ["user", "Fix @src/a.ts"],
      ["user", "What I typed."],
      ["user", "A plain string prompt."],
    ]);
  });

  it("gives no result for a call still running or cancelled, and an error for status error, a signal or an old Exit Code line", async () => {
    const { events } = await readTranscript(
      write("t.jsonl", [
        header,
        gemini("g1", "", [
          { id: "c1", name: "run_shell_command", args: { command: "pnpm dev" }, status: "executing" },
          shellCall("c2", "sleep 100", "Command was cancelled by user before it could complete.", "cancelled"),
          { id: "c3", name: "run_shell_command", args: { command: "rm -rf /root" }, result: [{ functionResponse: { id: "c3", name: "run_shell_command", response: { error: "Command rejected by policy." } } }], status: "error" },
          shellCall("c4", "make", "Output: boom\nSignal: 9\nProcess Group PGID: 7"),
          shellCall("c5", "make test", "Output: ok\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: 8"),
          { id: "c6", name: "write_file", args: { file_path: "/w/notes.md", content: "# Notes" }, result: [{ functionResponse: { id: "c6", name: "write_file", response: { output: "Wrote /w/notes.md" } } }], status: "success" },
          { id: "c7", name: "read_file", args: { absolute_path: "/w/a.ts" }, result: [{ functionResponse: { id: "c7", name: "read_file", response: { output: "const a = 1;" } } }], status: "success" },
        ]),
      ]),
    );
    expect(uses(events).map((u) => [u.id, u.name, u.command, u.filePath])).toEqual([
      ["c1", "Bash", "pnpm dev", ""],
      ["c2", "Bash", "sleep 100", ""],
      ["c3", "Bash", "rm -rf /root", ""],
      ["c4", "Bash", "make", ""],
      ["c5", "Bash", "make test", ""],
      ["c6", "Write", "", "/w/notes.md"],
      ["c7", "read_file", "", ""],
    ]);
    expect(results(events).map((r) => [r.toolUseId, r.isError, r.outputHead])).toEqual([
      ["c3", true, "Command rejected by policy."],
      ["c4", true, "boom\nSignal: 9"],
      ["c5", false, "Exit code 0\nok"],
      ["c6", false, "Wrote /w/notes.md"],
      ["c7", false, "const a = 1;"],
    ]);
  });

  it("reads a legacy single-JSON session file, with each message's events at the line its record starts", async () => {
    const doc = { ...header, messages: [user("u1", "Never push to main."), gemini("g1", "Noted.", [shellCall("c1", "git status", "Output: clean\nProcess Group PGID: 3")])] };
    const file = path.join(dir, "session-2025-06-01T10-00-s-gem.json");
    const text = JSON.stringify(doc, null, 2);
    fs.writeFileSync(file, text);
    const read = await readTranscript(file);
    const lineOf = (needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
    expect(read).toMatchObject({ sessionId: "s-gem", malformedLines: 0, linesRead: text.split("\n").length });
    expect(read.events).toEqual([
      { kind: "text", role: "user", text: "Never push to main.", line: lineOf('"id": "u1"') },
      { kind: "text", role: "assistant", text: "Noted.", line: lineOf('"id": "g1"') },
      { kind: "tool-use", id: "c1", name: "Bash", command: "git status", filePath: "", line: lineOf('"id": "g1"') },
      { kind: "tool-result", toolUseId: "c1", isError: false, outputHead: "clean", line: lineOf('"id": "g1"') },
    ]);
  });

  it("still counts every line of a JSON document that is no Gemini session as malformed", async () => {
    const file = path.join(dir, "other.json");
    fs.writeFileSync(file, JSON.stringify({ name: "pkg", scripts: { test: "vitest" } }, null, 2));
    const read = await readTranscript(file);
    expect(read.events).toEqual([]);
    expect(read.malformedLines).toBe(read.linesRead);
  });
});
