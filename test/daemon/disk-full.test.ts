import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, expect, it } from "vitest";
import { spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { refusal } from "../helpers/refusal.js";
import { requirement } from "../helpers/requirement.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { until } from "../helpers/until.js";

/**
 * A real full disk: MEMD_HOME on an 8 MiB tmpfs, filled to the last byte. Mounting needs root
 * (CAP_SYS_ADMIN): .ci/run runs as root, and so do these machines (a Firecracker VM, where the
 * mount works); elsewhere the test says why it is skipped.
 */
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "memd-full-"));
const mounted = process.getuid?.() === 0 ? spawnSync("mount", ["-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", mountPoint], { encoding: "utf8" }) : null;
const unmounted = mounted === null ? "not root, so no tmpfs can be mounted" : mounted.status !== 0 ? `mount of a tmpfs failed: ${(mounted.stderr || String(mounted.error)).trim()}` : "";
if (unmounted !== "") fs.rmSync(mountPoint, { recursive: true, force: true });
const missing = requirement(
  unmounted,
  "run .ci/run as root, in a VM or a container allowed to mount (docker run --privileged or --cap-add SYS_ADMIN)",
);

describeUnless(missing, "a full disk under MEMD_HOME", () => {
  let daemon: TestDaemon;
  const home = path.join(mountPoint, "home");
  const filler = path.join(mountPoint, "filler");

  beforeAll(async () => {
    daemon = await spawnDaemon({ home });
  });
  afterAll(async () => {
    await daemon?.stop();
    spawnSync("umount", [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  function fillDisk(): void {
    const fd = fs.openSync(filler, "w");
    const block = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) fs.writeSync(fd, block);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      // The last bytes too, so that not even a small page fits.
      try {
        for (;;) fs.writeSync(fd, block.subarray(0, 512));
      } catch {
        // Full.
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  it("answers a Save resource_exhausted with what to do, keeps reading and logging contained, and saves again once space is freed", async () => {
    const kept = await daemon.clients.memory.save({ content: "saved before the disk filled up", project: "disk" });
    fillDisk();
    const refused = await refusal(daemon.clients.memory.save({ content: `a large memory ${"x".repeat(60_000)}`, project: "disk" }));
    expect(refused.code).toBe(Code.ResourceExhausted);
    expect(refused.rawMessage).toMatch(/disk that holds MEMD_HOME is full.*free some space/);
    // Each refusal is logged: enough lines that the log's last page fills and its writes fail too.
    for (let i = 0; i < 40; i += 1) await refusal(daemon.clients.memory.save({ content: `another large memory ${i} ${"y".repeat(60_000)}`, project: "disk" }));
    const dropping = /cannot write .*memd\.log \(ENOSPC\): log lines are dropped until it can/;
    expect(await until(() => daemon.stderr(), (stderr) => dropping.test(stderr))).toMatch(dropping);
    expect((await daemon.clients.memory.get({ id: kept.memory?.id as string })).memory?.content).toBe("saved before the disk filled up");
    expect((await daemon.clients.admin.health({})).health?.pid).toBe(daemon.process.pid);
    expect(daemon.process.exitCode).toBeNull();

    fs.rmSync(filler);
    const saved = await daemon.clients.memory.save({ content: "saved after space was freed", project: "disk" });
    expect((await daemon.clients.memory.get({ id: saved.memory?.id as string })).memory?.content).toBe("saved after space was freed");
    expect((await daemon.clients.memory.list({ project: "disk" })).memories.map((m) => m.content).sort()).toEqual(["saved after space was freed", "saved before the disk filled up"]);
  });
});
