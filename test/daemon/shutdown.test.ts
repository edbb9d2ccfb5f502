import fs from "node:fs";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { createMemdClients, createSocketTransport } from "../../clients/transport/transport.js";
import { loadConfig } from "../../daemon/src/config/config.js";
import { readEnv } from "../../daemon/src/config/env.js";
import { startDaemon } from "../../daemon/src/daemon.js";
import { ReindexTarget } from "../../gen/memd/v1/admin_service_pb.js";
import { makeHome } from "../helpers/daemon.js";

describe("shutdown", () => {
  it("ends a stream still running when its wait is over with unavailable and why, then closes cleanly", async () => {
    const home = makeHome();
    const config = loadConfig(readEnv({ HOME: home, MEMD_HOME: home, MEMD_EMBEDDER: "none", MEMD_LOG_LEVEL: "info" }));
    // A wait far shorter than relinking 5,000 memories (about half a second, 100 per turn).
    const daemon = await startDaemon(config, { drainTimeoutMs: 20 });
    const clients = createMemdClients(createSocketTransport({ socketPath: config.socketPath, httpVersion: "1.1" }));
    const created = timestampFromMs(Date.now());
    for (let batch = 0; batch < 5; batch += 1) {
      const memories = Array.from({ length: 1000 }, (_, i) => ({
        id: `01JZ${String(batch * 1000 + i).padStart(22, "0")}`,
        content: `Ticket PAY-${batch * 1000 + i} needs a refund retry`,
        project: "billing",
        importance: 3,
        createTime: created,
        updateTime: created,
      }));
      await clients.admin.import({ memories });
    }

    let closing: Promise<void> | undefined;
    let progressSeen = 0;
    const outcome = await (async () => {
      for await (const progress of clients.admin.reindex({ target: ReindexTarget.KEYWORD })) {
        progressSeen += 1;
        expect(progress.done).toBeLessThan(progress.total);
        closing ??= daemon.close();
      }
      return undefined;
    })().catch((error: unknown) => ConnectError.from(error));
    await closing;

    const log = fs.readFileSync(`${home}/logs/memd.log`, "utf8");
    fs.rmSync(home, { recursive: true, force: true });
    expect(progressSeen).toBeGreaterThan(0);
    expect(outcome?.code).toBe(Code.Unavailable);
    expect(outcome?.rawMessage).toMatch(/^keyword reindex stopped before it was done: memd shut down before the call was done/);
    expect(log).toContain('"rpc":"memd.v1.AdminService/Reindex","code":"Unavailable"');
  }, 60_000);
});
