import { afterEach, describe, expect, it } from "vitest";
import { o200kTokens } from "./token-count.js";
import { TokenThread } from "./token-thread.js";

const POINTERS = [
  "memd has memories that bear on this prompt (full text: the memory_search tool with ids, or memctl recall --depth 2 --ids ID,...):",
  "- 01JQ4ZC5S7W3V0X8Y2N6M1K9PA (procedure) To rotate the webhook signing secret run make rotate-webhook-secret",
].join("\n");

let thread: TokenThread | null = null;
afterEach(async () => {
  await thread?.close();
  thread = null;
});

describe("token counts", () => {
  it("are o200k_base's: known counts, special tokens read as plain text", () => {
    expect(o200kTokens("")).toBe(0);
    expect(o200kTokens("hello world")).toBe(2);
    expect(o200kTokens("hello <|endoftext|> world")).toBe(9);
  });

  it("come from the thread exactly as counted in process, one per text in order", async () => {
    thread = new TokenThread();
    const texts = [POINTERS, "", "Auth is Clerk, not custom JWT."];
    expect(await thread.count(texts)).toEqual(texts.map(o200kTokens));
  });

  it("start a new thread after the last one stopped", async () => {
    thread = new TokenThread();
    expect(await thread.count(["one two"])).toEqual([2]);
    await thread.close();
    expect(await thread.count(["one two three"])).toEqual([3]);
  });

  it("fail the counts a thread had when it stops", async () => {
    thread = new TokenThread(new URL("data:text/javascript,process.exit(3)"));
    await expect(thread.count(["text"])).rejects.toThrow(/token-counting thread stopped \(exit code 3\)/);
  });
});
