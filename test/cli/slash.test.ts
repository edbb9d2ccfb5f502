import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind } from "../../gen/memd/v1/memory_pb.js";
import { removeDaemon, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

let daemon: TestDaemon;
let workspace: string;
beforeAll(async () => {
  daemon = await spawnDaemon();
  workspace = fs.mkdtempSync(path.join(daemon.home, "acme-api-"));
  await daemon.clients.memory.save({ content: "We deploy with Argo CD, never kubectl apply.", kind: MemoryKind.DECISION, cwd: workspace });
});
afterAll(() => removeDaemon(daemon));

describe("memctl slash, as the /memd command runs it", () => {
  it("briefs on the working directory's project for load, and by default", async () => {
    for (const args of [["slash", "load"], ["slash"], ["slash", ""]]) {
      const res = await runCli(daemon.home, args, { cwd: workspace });
      expect(res.code).toBe(0);
      expect(res.stdout).toContain("We deploy with Argo CD");
    }
  });

  it("runs stats and health for those words, and refuses any other with a usage error", async () => {
    expect((await runCli(daemon.home, ["slash", "stats"], { cwd: workspace })).stdout).toMatch(/active/);
    expect((await runCli(daemon.home, ["slash", "health"])).code).toBe(0);
    const bogus = await runCli(daemon.home, ["slash", "purge"]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("memctl slash takes one of load, stats, clean, compact, health, start");
  });
});
