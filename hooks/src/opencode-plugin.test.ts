// memd's OpenCode plugin in Node against a stand-in daemon on a Unix socket that records what it
// is sent: what the plugin forwards, what it adds to the user's message, and how it fails open.
// OpenCode itself (Bun) runs it in test/agents/opencode.test.ts.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memdOpenCodePlugin } from "./opencode-plugin.js";

interface Received {
  route: string;
  body: Record<string, unknown>;
}

let home: string;
let server: http.Server;
let received: Received[];
/** The stand-in's answer per route: a JSON body, "" for none, or "hang" to never answer. */
let answers: Record<string, string>;
let answered: string[];

const part = (text: string) => ({ type: "text", text, synthetic: true });
const parts = (...texts: string[]) => JSON.stringify({ parts: texts.map(part) });

beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "memd-oc-"));
  received = [];
  answers = {};
  answered = [];
  server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      const route = req.url ?? "";
      received.push({ route, body: JSON.parse(text) as Record<string, unknown> });
      const answer = answers[route] ?? "";
      if (answer === "hang") return;
      answered.push(route);
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(path.join(home, "memd.sock"), resolve));
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  vi.unstubAllEnvs();
  fs.rmSync(home, { recursive: true, force: true });
});

const start = () => memdOpenCodePlugin({ memdHome: home })({ directory: "/home/maya/code/acme-api" });
const created = (sessionID: string, parentID?: string) => ({ event: { type: "session.created", properties: { sessionID, info: { id: sessionID, ...(parentID ? { parentID } : {}) } } } });
const userMessage = (sessionID: string, text: string) => ({
  message: { id: "msg_1", role: "user", sessionID } as Record<string, unknown>,
  parts: [{ id: "prt_1", type: "text", text, messageID: "msg_1", sessionID }, { id: "prt_2", type: "file", url: "data:image/png;base64,AAAA", mime: "image/png" }] as Record<string, unknown>[],
});
const hooksLog = () => fs.readFileSync(path.join(home, "logs", "hooks.log"), "utf8");

describe("memd's OpenCode plugin", () => {
  it("holds a new session's briefing for its first prompt, and adds it and the pointers after the prompt as synthetic parts", async () => {
    answers = { "/hooks/opencode/session.created": parts("briefing"), "/hooks/opencode/chat.message": parts("pointers") };
    const hooks = await start();
    await hooks.event(created("ses_1"));
    const first = userMessage("ses_1", "How do we deploy?");
    await hooks["chat.message"]({ sessionID: "ses_1" }, first);
    expect(first.parts.map((p) => [p.id, p.type, p.text, p.synthetic, p.messageID])).toEqual([
      ["prt_1", "text", "How do we deploy?", undefined, "msg_1"],
      ["prt_2", "file", undefined, undefined, undefined],
      ["prt_2memd0", "text", "briefing", true, "msg_1"],
      ["prt_2memd1", "text", "pointers", true, "msg_1"],
    ]);
    const second = userMessage("ses_1", "And to staging?");
    await hooks["chat.message"]({ sessionID: "ses_1" }, second);
    expect(second.parts.slice(2).map((p) => p.text)).toEqual(["pointers"]);
  });

  it("forwards OpenCode's own event and hook arguments with the folder, the prompt's text parts only, and a sub-agent's parent", async () => {
    const hooks = await start();
    await hooks.event(created("ses_child", "ses_1"));
    await hooks["chat.message"]({ sessionID: "ses_child" }, userMessage("ses_child", "Explore the repo"));
    expect(received.map((r) => r.route)).toEqual(["/hooks/opencode/session.created", "/hooks/opencode/chat.message"]);
    expect(received[0]?.body).toEqual({ directory: "/home/maya/code/acme-api", ...created("ses_child", "ses_1") });
    expect(received[1]?.body).toMatchObject({ directory: "/home/maya/code/acme-api", input: { sessionID: "ses_child" }, parentID: "ses_1" });
    expect((received[1]?.body.output as { parts: unknown[] }).parts).toEqual([{ id: "prt_1", type: "text", text: "Explore the repo", messageID: "msg_1", sessionID: "ses_child" }]);
  });

  it("posts a bash call's outcome and the end of a turn without waiting for them, and dispose waits for both", async () => {
    vi.stubEnv("XDG_DATA_HOME", "/data/maya");
    answers = { "/hooks/opencode/tool.execute.after": "hang", "/hooks/opencode/session.idle": "hang" };
    vi.stubEnv("MEMD_HOOK_TIMEOUT_MS", "300");
    const hooks = await start();
    const output = { title: "ls /x", output: "ls: /x: No such file", metadata: { exit: 2 } };
    await hooks["tool.execute.after"]({ tool: "read", sessionID: "ses_1" }, output);
    await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_1" }, output);
    await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_1" } } });
    // Both hooks returned while their posts are still unanswered.
    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(received.map((r) => r.route)).toEqual(["/hooks/opencode/tool.execute.after", "/hooks/opencode/session.idle"]);
    expect(received[1]?.body.storage).toEqual({ HOME: os.homedir(), XDG_DATA_HOME: "/data/maya" });
    await hooks.dispose();
    expect(hooksLog().trim().split("\n")).toEqual([
      expect.stringMatching(/ opencode tool\.execute\.after gave up after the 300 ms budget$/),
      expect.stringMatching(/ opencode session\.idle gave up after the 300 ms budget$/),
    ]);
  });

  it("fails open with memd down: the prompt goes on as it was, and hooks.log names the socket", async () => {
    server.close();
    const hooks = await start();
    const message = userMessage("ses_1", "Hello");
    await hooks.event(created("ses_1"));
    await hooks["chat.message"]({ sessionID: "ses_1" }, message);
    expect(message.parts).toHaveLength(2);
    expect(hooksLog()).toContain(`opencode chat.message daemon call failed: memd is not running (nothing answers on ${path.join(home, "memd.sock")})`);
  });

  it("gives up on a daemon that does not answer within the prompt's budget", async () => {
    answers = { "/hooks/opencode/chat.message": "hang" };
    const hooks = await start();
    const message = userMessage("ses_1", "Hello");
    await hooks["chat.message"]({ sessionID: "ses_1" }, message);
    expect(message.parts).toHaveLength(2);
    expect(hooksLog()).toMatch(/ opencode chat\.message gave up after the 300 ms budget\n$/);
  });
});
