import { describe, expect, it } from "vitest";
import type { CaptureCandidate } from "./candidate.js";
import { extractCandidates } from "./extract-candidates.js";
import { readTranscript } from "./read-transcript.js";
import { parseTranscriptLine } from "./transcript-line.js";
import { AUTH_FIX_TEXTS, eventsOf, textsOf, toolResultsOf, toolUsesOf, transcriptFixture } from "../../../test/helpers/transcript-fixture.js";

// The Cursor transcript format is not documented: the fixture follows the shape third-party
// readers describe (see test/capture/fixtures/README.md), so these tests pin that reading only.
const { file: FIXTURE, lines: LINES } = transcriptFixture("cursor-transcript.jsonl");
const ROOT = "/home/maya/code/acme-api";


const events = eventsOf(LINES);
const texts = textsOf;
const uses = toolUsesOf(events);
const results = toolResultsOf(events);

describe("readTranscript on a Cursor agent transcript (inferred format)", () => {
  it("reads every line; the format records no session id or working directory", async () => {
    const read = await readTranscript(FIXTURE);
    expect(read).toMatchObject({ sessionId: "", cwd: "", linesRead: LINES.length, malformedLines: 0 });
    expect(read.events).toEqual(events);
  });

  it("reads the user's words from <user_query> only, and no context block Cursor added", () => {
    expect(texts(events)).toEqual(AUTH_FIX_TEXTS);
    expect(JSON.stringify(texts(events))).not.toMatch(/user_info|Always answer in English|timestamp|Exit code/);
    const turnEnded = LINES.findIndex((l) => l.includes('"type":"turn_ended"'));
    expect(parseTranscriptLine(LINES[turnEnded] as string, turnEnded + 1)).toMatchObject({ ok: true, events: [] });
  });

  it("reads Shell as Bash with the command, edits with the file, and the exit code of each result", () => {
    expect(uses.map((u) => [u.name, u.command, u.filePath])).toEqual([
      ["Bash", "pnpm test src/auth", ""],
      ["Edit", "", `${ROOT}/src/auth/tokens.ts`],
      ["Bash", "pnpm test src/auth", ""],
    ]);
    expect(results.map((r) => [r.toolUseId, r.isError])).toEqual(uses.map((u, i) => [u.id, i === 0]));
    expect(results[0]?.outputHead).toMatch(/^Exit code 1\n> acme-api@0\.14\.2 test/);
    expect(results[2]?.outputHead).toMatch(/^Exit code 0\n> acme-api/);
  });

  it("finds the failing test, the fix and the passing rerun as one episode, and the user's standing rule", () => {
    const found = extractCandidates(events, ROOT);
    const episodes = found.filter((c) => c.kind === "episode");
    expect(episodes).toHaveLength(1);
    expect(episodes[0] as CaptureCandidate).toMatchObject({ files: ["src/auth/tokens.ts"], concepts: ["pnpm"], problem: expect.stringMatching(/^`pnpm test src\/auth` failed \(exit code 1\): FAIL/) });
    expect(found.filter((c) => c.kind === "preference").map((p) => p.content)).toEqual(["Run the auth tests before you say a fix is done."]);
  });

  it("takes is_error as a failure when no exit code is given, and a plain string as the message", () => {
    const line = (role: string, content: unknown) => ({ role, message: { content } });
    expect(
      eventsOf([
        line("user", "Never force-push."),
        line("assistant", [{ type: "tool_use", id: "w1", name: "Write", input: { path: "/w/a.md", contents: "# A" } }]),
        line("user", [{ type: "tool_result", tool_use_id: "w1", content: "Permission denied", is_error: true }]),
      ]),
    ).toEqual([
      { kind: "text", role: "user", text: "Never force-push.", line: 1 },
      { kind: "tool-use", id: "w1", name: "Write", command: "", filePath: "/w/a.md", line: 2 },
      { kind: "tool-result", toolUseId: "w1", isError: true, outputHead: "Permission denied", line: 3 },
    ]);
  });
});
