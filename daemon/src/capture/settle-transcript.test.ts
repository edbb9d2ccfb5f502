import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { settleTranscript } from "./settle-transcript.js";

const dirs: string[] = [];
const transcript = (text: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-settle-"));
  dirs.push(dir);
  const file = path.join(dir, "events.jsonl");
  fs.writeFileSync(file, text);
  return file;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("settleTranscript", () => {
  it("waits for the end marker past the quiet time, so a session flushed late is read whole", async () => {
    const file = transcript('{"type":"session.start"}\n');
    // Quiet for far longer than a quiet file needs, then the agent writes its last events.
    const writer = sleep(800).then(() => fs.appendFileSync(file, '{"type":"user.message"}\n{"type":"session.shutdown"}\n'));
    await settleTranscript(file, '"type":"session.shutdown"', 10_000);
    expect(fs.readFileSync(file, "utf8")).toContain("session.shutdown");
    await writer;
  });

  it("gives up on a marker that never comes after its longest wait", async () => {
    const file = transcript('{"type":"session.start"}\n');
    const started = performance.now();
    await settleTranscript(file, '"type":"session.shutdown"', 300);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("without a marker, returns once the file stops changing", async () => {
    const file = transcript("a\n");
    let writes = 0;
    const writer = (async () => {
      for (; writes < 4; writes += 1) {
        await sleep(60);
        fs.appendFileSync(file, "more\n");
      }
    })();
    await settleTranscript(file, undefined, 10_000);
    expect(writes).toBe(4);
    await writer;
  });

  it("without a marker, returns at once for a file that is not there", async () => {
    await settleTranscript(path.join(os.tmpdir(), "memd-settle-missing", "events.jsonl"), undefined, 60_000);
  });

  it("with a marker, waits for a file that the agent has not created yet", async () => {
    const file = path.join(path.dirname(transcript("")), "later", "events.jsonl");
    const writer = sleep(400).then(() => {
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, '{"type":"user.message"}\n{"type":"session.shutdown"}\n');
    });
    await settleTranscript(file, '"type":"session.shutdown"', 10_000);
    expect(fs.readFileSync(file, "utf8")).toContain("user.message");
    await writer;
  });
});
