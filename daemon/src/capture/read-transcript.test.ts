import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { readTranscript } from "./read-transcript.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-transcript-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const userLine = (text: string) => JSON.stringify({ type: "user", sessionId: "s-9", cwd: "/work/app", message: { role: "user", content: text } });

function write(name: string, lines: string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

describe("readTranscript", () => {
  it("counts and skips malformed lines, ignores blank ones, and reads the session id and cwd", async () => {
    const file = write("s.jsonl", [userLine("first"), "{broken", "", "42", userLine("second")]);
    const read = await readTranscript(file);
    expect(read).toMatchObject({ sessionId: "s-9", cwd: "/work/app", linesRead: 4, malformedLines: 2, truncated: false });
    expect(read.events.map((e) => (e.kind === "text" ? e.text : ""))).toEqual(["first", "second"]);
  });

  it("reads only the tail of a file over the limit, dropping the cut line", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => userLine(`message ${i}`));
    const file = write("big.jsonl", lines);
    const read = await readTranscript(file, 500);
    expect(read.truncated).toBe(true);
    expect(read.malformedLines).toBe(0);
    const texts = read.events.map((e) => (e.kind === "text" ? e.text : ""));
    expect(texts.at(-1)).toBe("message 49");
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.length).toBeLessThan(50);
  });

  it("refuses a relative path, a missing file and a directory with errors that say what to pass", async () => {
    await expect(readTranscript("transcripts/s.jsonl")).rejects.toThrow(InvalidInputError);
    await expect(readTranscript("")).rejects.toThrow(/transcript_path is empty/);
    await expect(readTranscript(path.join(dir, "missing.jsonl"))).rejects.toThrow(NotFoundError);
    await expect(readTranscript(dir)).rejects.toThrow(/is not a regular file/);
  });
});
