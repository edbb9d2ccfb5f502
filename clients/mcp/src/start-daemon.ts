import type { DaemonLink } from "./daemon-link.js";
import { ToolFailure } from "./tool-result.js";

const START_TIMEOUT_MS = 15_000;

/**
 * Starts the daemon detached, as `memctl start` does, and waits until it answers Health.
 * Returns a sentence for the agent; a daemon that is already running is left alone.
 */
export async function startDaemon(link: DaemonLink, daemonMain: string): Promise<string> {
  try {
    // Like the transport, loaded when asked for (it brings Node's child_process), not at start-up.
    const { startDetachedDaemon } = await import("../../transport/daemon-start.js");
    const started = await startDetachedDaemon({ clients: await link.clients(), endpoint: link.endpoint, daemonMain, withinMs: START_TIMEOUT_MS });
    return started.alreadyRunning ? `memd is already running (pid ${started.pid})` : `memd started (pid ${started.pid}), home ${link.endpoint.home}`;
  } catch (error) {
    throw new ToolFailure(error instanceof Error ? error.message : String(error));
  }
}
