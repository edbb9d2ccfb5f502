import pino from "pino";
import { describe, expect, it } from "vitest";
import type { InjectionEntry, NewInjection } from "./injection.js";
import { InjectionRecorder, RECORDED_TEXT_CHARS } from "./injection-recorder.js";

const silent = pino({ level: "silent" });

function entry(extra: Partial<InjectionEntry> = {}): InjectionEntry {
  return { at: 1, sessionId: "s", agent: "codex", via: "UserPromptSubmit", kind: "pointers", project: "p", prompt: "a prompt", memories: [], text: "some text", ...extra };
}

/** A count that answers when told to, so that a test decides what is in flight. */
function heldCounts() {
  const calls: { texts: string[]; answer: () => void }[] = [];
  return {
    calls,
    count: (texts: string[]) => new Promise<number[]>((resolve) => calls.push({ texts, answer: () => resolve(texts.map((t) => t.length)) })),
  };
}

describe("InjectionRecorder", () => {
  it("stores what queued while a batch was counted as the next batch, and settles after both", async () => {
    const stored: NewInjection[][] = [];
    const counts = heldCounts();
    const recorder = new InjectionRecorder({ log: { add: (records) => stored.push([...records]) }, countTokens: counts.count, logger: silent });
    recorder.record(entry({ text: "first" }));
    recorder.record(entry({ text: "second" }));
    const settled = recorder.settled();
    await Promise.resolve();
    expect(counts.calls.map((c) => c.texts)).toEqual([["first"]]);
    counts.calls[0]?.answer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(counts.calls.map((c) => c.texts)).toEqual([["first"], ["second"]]);
    counts.calls[1]?.answer();
    await settled;
    expect(stored.map((batch) => batch.map((r) => [r.text, r.tokens]))).toEqual([[["first", 5]], [["second", 6]]]);
  });

  it("keeps the prompt redacted and bounded, and the text cut, with the tokens of all of it", async () => {
    const stored: NewInjection[] = [];
    const recorder = new InjectionRecorder({ log: { add: (records) => stored.push(...records) }, countTokens: async (texts) => texts.map((t) => t.length), logger: silent });
    const long = "x".repeat(RECORDED_TEXT_CHARS + 10);
    recorder.record(entry({ prompt: "deploy with password=hunter2hunter2 now", text: long }));
    await recorder.settled();
    expect(stored[0]).toMatchObject({ prompt: "deploy with password=[REDACTED:password-assignment] now", tokens: RECORDED_TEXT_CHARS + 10 });
    expect(stored[0]?.text).toHaveLength(RECORDED_TEXT_CHARS);
  });

  it("loses only the record when counting fails, and records the next answers", async () => {
    const stored: NewInjection[] = [];
    let fail = true;
    const recorder = new InjectionRecorder({
      log: { add: (records) => stored.push(...records) },
      countTokens: async (texts) => {
        if (fail) throw new Error("thread stopped");
        return texts.map(() => 1);
      },
      logger: silent,
    });
    recorder.record(entry({ text: "lost" }));
    await recorder.settled();
    fail = false;
    recorder.record(entry({ text: "kept" }));
    await recorder.settled();
    expect(stored.map((r) => r.text)).toEqual(["kept"]);
  });
});
