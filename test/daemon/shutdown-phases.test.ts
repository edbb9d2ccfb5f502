import fs from "node:fs";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { createMemdClients, createSocketTransport } from "../../clients/transport/transport.js";
import { loadConfig } from "../../daemon/src/config/config.js";
import { readEnv } from "../../daemon/src/config/env.js";
import { startDaemon } from "../../daemon/src/daemon.js";
import { MemoryKind } from "../../gen/memd/v1/memory_pb.js";
import { makeHome } from "../helpers/daemon.js";

describe("shutdown phases", () => {
  it("answers or cleanly refuses the saves in flight as memd stops, and closes the store only after the workers stopped", async () => {
    const home = makeHome();
    const config = loadConfig(readEnv({ HOME: home, MEMD_HOME: home, MEMD_EMBEDDER: "none", MEMD_LOG_LEVEL: "info" }));
    const daemon = await startDaemon(config);
    const clients = createMemdClients(createSocketTransport({ socketPath: config.socketPath, httpVersion: "1.1" }));
    await clients.memory.save({ content: "Deploys go out on Tuesdays", kind: MemoryKind.FACT, project: "ops" });

    const saves = Array.from({ length: 20 }, (_, i) =>
      clients.memory.save({ content: `Ticket OPS-${i} waits for the Tuesday deploy`, kind: MemoryKind.FACT, project: "ops" }).then(
        (answer) => ({ saved: answer.memory?.id ?? "" }),
        (error: unknown) => ({ refused: ConnectError.from(error).code, why: ConnectError.from(error).message }),
      ),
    );
    await daemon.close();
    const outcomes = await Promise.all(saves);

    const log = fs.readFileSync(`${home}/logs/memd.log`, "utf8");
    fs.rmSync(home, { recursive: true, force: true });
    // Each call has an answer, never left hanging: stored, refused (unavailable), or its connection
    // closed before the request was sent (connect-node reports a write to a closed socket as internal).
    for (const outcome of outcomes) {
      if ("saved" in outcome) expect(outcome.saved).toMatch(/^[0-9A-Z]{26}$/);
      else if (outcome.refused !== Code.Unavailable) expect(outcome.why).toMatch(/EPIPE|ECONNRESET/);
    }
    const phases = log.split("\n").flatMap((line) => (line.includes('"msg":"memd stopping"') ? [JSON.parse(line).phase as string] : []));
    expect(phases).toEqual(["stop accepting", "drain", "abort", "stop workers", "close the store"]);
    expect(log).not.toContain("a step of shutdown failed");
  }, 60_000);
});
