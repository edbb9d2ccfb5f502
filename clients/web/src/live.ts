import { Code, ConnectError } from "@connectrpc/connect";
import type { RecordChange } from "../../../gen/memd/v1/change_service_pb.js";
import { changes } from "./daemon.js";

/** Where the page's watch of the daemon's changes stands, as the header shows it. */
export type LiveState = "connecting" | "live" | "paused" | "signed-out";

export interface LiveHandlers {
  /** Changes committed since the last call; `missed` when some were lost (a reconnection, a page that fell behind): read everything again. */
  changed(changes: readonly RecordChange[], missed: boolean): void;
  state(state: LiveState): void;
}

/** The wait before watching again after a watch ended, doubled each time it fails at once, up to the last. */
const RETRY_MS = [500, 1000, 2000, 4000, 8000, 15000];

/**
 * Watches the daemon's changes (ChangeService.WatchChanges, a server stream over the Connect
 * protocol) while the page is visible, and watches again when memd restarts; stops for good once
 * the daemon no longer takes this browser's session. A hidden tab lets its watch go: a browser
 * holds six HTTP/1.1 connections per origin, and each watch keeps one.
 */
export async function watchChanges(handlers: LiveHandlers): Promise<void> {
  let watchedBefore = false;
  for (let failures = 0; ; failures += 1) {
    await visible();
    handlers.state("connecting");
    const hidden = new AbortController();
    const onHidden = () => {
      if (document.hidden) hidden.abort();
    };
    document.addEventListener("visibilitychange", onHidden);
    try {
      let first = true;
      for await (const message of changes.watchChanges({}, { signal: hidden.signal })) {
        if (first) {
          first = false;
          failures = 0;
          handlers.state("live");
          // Watching: every write from now on reaches the page. The browser tests wait for this.
          performance.mark("memd:live");
          // What was written while the page was not watching is not known: read it again.
          if (watchedBefore) handlers.changed([], true);
          watchedBefore = true;
          continue;
        }
        handlers.changed(message.changes, message.missed);
      }
    } catch (error) {
      if (error instanceof ConnectError && error.code === Code.Unauthenticated) {
        handlers.state("signed-out");
        return;
      }
    } finally {
      document.removeEventListener("visibilitychange", onHidden);
    }
    if (hidden.signal.aborted) {
      handlers.state("paused");
      failures = -1;
    } else await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]));
  }
}

/** Resolves once the page is visible. */
function visible(): Promise<void> {
  if (!document.hidden) return Promise.resolve();
  return new Promise((resolve) => {
    const onChange = () => {
      if (document.hidden) return;
      document.removeEventListener("visibilitychange", onChange);
      resolve();
    };
    document.addEventListener("visibilitychange", onChange);
  });
}
