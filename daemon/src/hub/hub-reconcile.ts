import type { HubNotice, HubStore } from "../store/hub-store.js";
import type { HubPort, HubState } from "./hub-port.js";

/** Acknowledged rows checked against the hub per query: a few hundred kilobytes of ids. */
const CHECK_PAGE = 5_000;

/**
 * A hub is somebody else's server, and can lose what it acknowledged: its owner truncates or
 * deletes rows, puts another database at the same URL, restores an older backup, or crashes
 * before a commit it acknowledged reached its disk. Nobody tells the daemons, so each one checks
 * for itself and pushes again what its person would otherwise have lost, without being asked.
 *
 * followHubIdentity runs on every pull (one cheap read of the hub's identity and epoch);
 * findLostRows on every new connection (it checks each acknowledged row, in pages).
 */

/**
 * Compares the hub's identity and epoch with what this machine last saw: another hub, or one
 * whose owner deleted rows since, gets everything of this person's queued again (and the stream
 * read from its start). Returns the notice when it did so, null when the hub is the one it knew.
 */
export function followHubIdentity(store: HubStore, state: HubState, at: number): HubNotice | null {
  const link = store.link();
  if (!link) return null;
  if (link.hubId === "") {
    store.adopt(state);
    return null;
  }
  let text: string;
  if (link.hubId !== state.hubId) {
    text = `the hub at this URL is another hub than the one this machine synced with (its id was ${link.hubId}, now ${state.hubId}): every memory and event of yours was queued for it`;
  } else if (link.epoch !== state.epoch) {
    text = `the hub lost rows: its owner truncated or deleted memories or events (epoch ${link.epoch}, now ${state.epoch}); every memory and event of yours was queued for it again`;
  } else {
    return null;
  }
  const notice = { text, at };
  store.refill(state, notice);
  return notice;
}

/**
 * Checks that the hub still holds every memory and event of this person's whose push it
 * acknowledged to this machine, and queues again those it lost. Returns the notice when any
 * were lost, null when all were there.
 */
export async function findLostRows(hub: HubPort, store: HubStore, at: number): Promise<HubNotice | null> {
  const memories: string[] = [];
  for (let after = ""; ;) {
    const page = store.acknowledgedMemories(after, CHECK_PAGE);
    if (page.length === 0) break;
    memories.push(...(await hub.missingMemories(page)));
    after = (page.at(-1) as { id: string }).id;
    if (page.length < CHECK_PAGE) break;
  }
  const events: number[] = [];
  for (let after = 0; ;) {
    const page = store.acknowledgedEvents(after, CHECK_PAGE);
    if (page.length === 0) break;
    const missing = new Set(await hub.missingEvents(page.map((e) => e.key)));
    events.push(...page.filter((e) => missing.has(e.key)).map((e) => e.eventId));
    after = (page.at(-1) as { eventId: number }).eventId;
    if (page.length < CHECK_PAGE) break;
  }
  if (memories.length === 0 && events.length === 0) return null;
  const notice = {
    text: `the hub no longer held ${memories.length} memories and ${events.length} events of yours that it had acknowledged to this machine (restored from an older backup, or lost in a crash before they reached its disk?): they were queued for it again`,
    at,
  };
  store.requeue(memories, events, notice);
  return notice;
}
