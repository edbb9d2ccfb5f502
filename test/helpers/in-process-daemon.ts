import fs from "node:fs";
import { createMemdClients, createSocketTransport, type MemdClients } from "../../clients/transport/transport.js";
import { loadConfig } from "../../daemon/src/config/config.js";
import { readEnv } from "../../daemon/src/config/env.js";
import { type RunningDaemon, startDaemon } from "../../daemon/src/daemon.js";
import { makeHome } from "./daemon.js";

/** A clock the test moves by hand: the daemon reads it for every timestamp, decay and expiry. */
export interface FakeClock {
  now(): number;
  set(ms: number): void;
}

export function fakeClock(start: number): FakeClock {
  let current = start;
  return {
    now: () => current,
    set(ms) {
      current = ms;
    },
  };
}

export interface InProcessDaemon {
  home: string;
  dbFile: string;
  /** Over HTTP/2 (h2c) on the real Unix socket (memctl and memd-mcp use HTTP/1.1, which the CLI tests take). */
  clients: MemdClients;
  /** Stops the daemon and removes its state directory. */
  close(): Promise<void>;
}

/**
 * Runs memd inside the test process on a temp MEMD_HOME with an injected clock, so that a test
 * can live through months in seconds. The config comes from environment-style settings through
 * the same loadConfig the binary uses; keyword-only unless `env` names an embedder.
 */
export async function startInProcessDaemon(options: { clock: FakeClock; env?: Record<string, string> }): Promise<InProcessDaemon> {
  const home = makeHome();
  // HOME too, so that nothing the daemon derives from the user's home reaches the real one.
  const config = loadConfig(readEnv({ HOME: home, MEMD_HOME: home, MEMD_EMBEDDER: "none", MEMD_LOG_LEVEL: "warn", ...options.env }));
  let daemon: RunningDaemon;
  try {
    daemon = await startDaemon(config, { now: options.clock.now });
  } catch (error) {
    fs.rmSync(home, { recursive: true, force: true });
    throw error;
  }
  const clients = createMemdClients(createSocketTransport({ socketPath: config.socketPath, httpVersion: "2" }));
  return {
    home,
    dbFile: config.dbFile,
    clients,
    async close() {
      await daemon.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
