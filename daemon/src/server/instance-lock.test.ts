import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AlreadyRunningError, acquireInstanceLock, readPid } from "./instance-lock.js";

let dir: string;
let pidFile: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-lock-"));
  pidFile = path.join(dir, "memd.pid");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("acquireInstanceLock", () => {
  it("records this process and removes the pid file on release", () => {
    const lock = acquireInstanceLock(pidFile);
    expect(readPid(pidFile)).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(pidFile)).toBe(false);
  });

  it("refuses while a live process holds the lock", () => {
    const lock = acquireInstanceLock(pidFile);
    expect(() => acquireInstanceLock(pidFile)).toThrow(AlreadyRunningError);
    lock.release();
  });

  it("takes over a pid file left by a process that no longer exists", () => {
    fs.writeFileSync(pidFile, "2147483646\n");
    const lock = acquireInstanceLock(pidFile);
    expect(readPid(pidFile)).toBe(process.pid);
    lock.release();
  });
});
