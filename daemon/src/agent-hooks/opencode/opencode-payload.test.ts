import { describe, expect, it } from "vitest";
import { openCodeDatabase, parseOpenCodeInput } from "./opencode-payload.js";

describe("OpenCode's database, as OpenCode finds it", () => {
  it("is opencode.db in the data folder, OPENCODE_DB when set, and nothing when it cannot be told or lives in memory", () => {
    expect(openCodeDatabase({ HOME: "/home/maya" })).toBe("/home/maya/.local/share/opencode/opencode.db");
    expect(openCodeDatabase({ HOME: "/home/maya", XDG_DATA_HOME: "/data" })).toBe("/data/opencode/opencode.db");
    expect(openCodeDatabase({ HOME: "/home/maya", OPENCODE_DB: "work.db" })).toBe("/home/maya/.local/share/opencode/work.db");
    expect(openCodeDatabase({ OPENCODE_DB: "/srv/oc.db" })).toBe("/srv/oc.db");
    expect(openCodeDatabase({ HOME: "/home/maya", OPENCODE_DB: ":memory:" })).toBe("");
    expect(openCodeDatabase({})).toBe("");
  });
});

describe("parseOpenCodeInput", () => {
  it("reads the session, folder and prompt of a chat.message, and the source of a compaction", () => {
    const prompt = {
      directory: "/w",
      input: { sessionID: "ses_1" },
      output: { parts: [{ type: "text", text: "first" }, { type: "text", text: "added", synthetic: true }, { type: "text", text: "second" }] },
    };
    expect(parseOpenCodeInput("chat.message", JSON.stringify(prompt))).toMatchObject({ sessionId: "ses_1", cwd: "/w", prompt: "first\nsecond" });
    const compacted = { event: { type: "session.compacted", properties: { sessionID: "ses_1" } } };
    expect(parseOpenCodeInput("session.compacted", JSON.stringify(compacted))).toMatchObject({ sessionId: "ses_1", source: "compact" });
  });
});
