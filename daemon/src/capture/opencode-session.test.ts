import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AUTH_FIX_TEXTS, textsOf, toolResultsOf, toolUsesOf } from "../../../test/helpers/transcript-fixture.js";
import { OPENCODE_SESSION, OPENCODE_SESSION_ID, type OpenCodeSessionFixture, writeOpenCodeDatabase } from "../../../test/helpers/opencode-database.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { CaptureCandidate } from "./candidate.js";
import { extractCandidates } from "./extract-candidates.js";
import { checkTranscriptPath, readTranscript } from "./read-transcript.js";

const FIXTURE = OPENCODE_SESSION;
const SESSION = OPENCODE_SESSION_ID;
const ROOT = "/home/maya/code/acme-api";
const dirs: string[] = [];

/** opencode.db holding the fixture's rows and `extra` ones, in a fresh folder. */
function database(extra: Partial<OpenCodeSessionFixture> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-opencode-"));
  dirs.push(dir);
  const file = path.join(dir, "opencode.db");
  writeOpenCodeDatabase(file, extra);
  return file;
}

const message = (id: string, data: Record<string, unknown>, sessionId = SESSION) => ({ id, session_id: sessionId, time_created: 1796291900000, time_updated: 1796291900000, data: JSON.stringify(data) });
const part = (id: string, messageId: string, data: Record<string, unknown>, sessionId = SESSION) => ({
  id,
  message_id: messageId,
  session_id: sessionId,
  time_created: 1796291900000,
  time_updated: 1796291900000,
  data: JSON.stringify(data),
});

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("readTranscript on OpenCode's database", () => {
  const file = database();

  it("reads the named session's messages in order, with its working directory", async () => {
    const read = await readTranscript(file, undefined, SESSION);
    expect(read).toMatchObject({ sessionId: SESSION, cwd: ROOT, linesRead: FIXTURE.part.length, malformedLines: 0, truncated: false });
    expect(textsOf(read.events)).toEqual(AUTH_FIX_TEXTS);
  });

  it("reads bash calls as Bash with their exit code, and edits with their file", async () => {
    const { events } = await readTranscript(file, undefined, SESSION);
    expect(toolUsesOf(events).map((u) => [u.id, u.name, u.command, u.filePath, u.line])).toEqual([
      ["call_test1", "Bash", "pnpm test src/auth", "", 2],
      ["call_read", "read", "", "", 3],
      ["call_edit", "Edit", "", `${ROOT}/src/auth/tokens.ts`, 4],
      ["call_test2", "Bash", "pnpm test src/auth", "", 5],
    ]);
    const resultOf = (id: string) => toolResultsOf(events).find((r) => r.toolUseId === id);
    expect(resultOf("call_test1")).toMatchObject({ isError: true, outputHead: expect.stringMatching(/^Exit code 1\n> acme-api@0\.14\.2 test/) });
    expect(resultOf("call_edit")).toMatchObject({ isError: false, outputHead: "Edit applied successfully." });
    expect(resultOf("call_test2")).toMatchObject({ isError: false, outputHead: expect.stringMatching(/^Exit code 0\n> acme-api[\s\S]*3 passed \(3\)\n$/) });
  });

  it("finds the failing test, the fix and the passing rerun as one episode, and the user's standing rule", async () => {
    const read = await readTranscript(file, undefined, SESSION);
    const found = extractCandidates(read.events, read.cwd);
    const episodes = found.filter((c) => c.kind === "episode");
    expect(episodes).toHaveLength(1);
    const episode = episodes[0] as CaptureCandidate;
    expect(episode).toMatchObject({ files: ["src/auth/tokens.ts"], concepts: ["pnpm"] });
    expect(episode.problem).toMatch(/^`pnpm test src\/auth` failed \(exit code 1\): FAIL src\/auth\/__tests__\/tokens\.test\.ts > verifyAccessToken/);
    expect(episode.solution).toContain("Changed src/auth/tokens.ts.");
    expect(found.filter((c) => c.kind === "preference").map((p) => p.content)).toEqual(["Run the auth tests before you say a fix is done."]);
  });
});

describe("readTranscript on other OpenCode records", () => {
  it("leaves out synthetic parts (memd's own briefing and pointers), compaction summaries and sub-agent sessions", async () => {
    const firstUser = FIXTURE.message[0]?.id as string;
    const file = database({
      session: [{ ...FIXTURE.session[0], id: "ses_child", parent_id: SESSION, slug: "child" }],
      message: [
        message("msg_zz1", { role: "assistant", summary: true, mode: "compaction" }),
        message("msg_child1", { role: "user" }, "ses_child"),
      ],
      part: [
        part(`${FIXTURE.part[0]?.id as string}memd`, firstUser, { type: "text", text: "memd: Always use pnpm, never npm.", synthetic: true }),
        part("prt_zz1", "msg_zz1", { type: "text", text: "Summary: always deploy on Fridays." }),
        part("prt_child1", "msg_child1", { type: "text", text: "Never run the integration tests." }, "ses_child"),
      ],
    });
    const read = await readTranscript(file, undefined, SESSION);
    expect(textsOf(read.events)).toEqual(AUTH_FIX_TEXTS);
    expect(await readTranscript(file, undefined, "ses_child")).toMatchObject({ events: [], cwd: ROOT });
  });

  it("reads a killed command as failed on timeout and as not failed when the user aborted it", async () => {
    const killed = (id: string, why: string) =>
      part(`prt_zz_${id === "t" ? 1 : 2}`, "msg_zz2", {
        type: "tool",
        tool: "bash",
        callID: id,
        state: { status: "completed", input: { command: "pnpm e2e" }, output: `running\n\n<shell_metadata>\n${why}\n</shell_metadata>`, metadata: { exit: null } },
      });
    const file = database({
      message: [message("msg_zz2", { role: "assistant" })],
      part: [killed("t", "shell tool terminated command after exceeding timeout 120000 ms. If this command is expected to take longer..."), killed("a", "User aborted the command")],
    });
    const results = toolResultsOf((await readTranscript(file, undefined, SESSION)).events);
    expect(results.slice(-2)).toMatchObject([
      { toolUseId: "t", isError: true, outputHead: "running" },
      { toolUseId: "a", isError: false, outputHead: "running" },
    ]);
  });

  it("reads only the newest parts past the size limit", async () => {
    const file = database();
    const read = await readTranscript(file, 1000, SESSION);
    expect(read.truncated).toBe(true);
    expect(textsOf(read.events).at(-1)).toEqual(AUTH_FIX_TEXTS.at(-1));
    expect(textsOf(read.events)).not.toContainEqual(AUTH_FIX_TEXTS[0]);
  });

  it("asks for the session id with the database, and names a session it does not hold", async () => {
    const file = database();
    expect(() => checkTranscriptPath(file)).toThrow(InvalidInputError);
    expect(() => checkTranscriptPath(file)).toThrow(/pass session_id/);
    await expect(readTranscript(file, undefined, "ses_missing")).rejects.toThrow(NotFoundError);
  });
});
