import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "./logger.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the daemon's logger", () => {
  it("writes lines deferred to the next turn before it closes, and drops lines logged after, without throwing", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-log-"));
    const { logger, flush } = createLogger(dir, "info");
    logger.info("before");
    setImmediate(() => logger.info("deferred"));
    await flush();
    expect(() => logger.info("after")).not.toThrow();
    const lines = fs.readFileSync(path.join(dir, "memd.log"), "utf8").trim().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["before", "deferred"]);
  });
});
