import { ulid } from "ulid";
import { connectHub } from "../daemon/src/hub/pg-hub.js";
import type { HubPort, StreamCursor } from "../daemon/src/hub/hub-port.js";
import { buildMemory } from "../daemon/src/memory/new-memory.js";
import type { TestPostgres } from "../test/helpers/postgres.js";
import { type LatencySummary, summarize } from "./latency.js";
import { count } from "./table.js";

export interface FleetResult {
  hubMemories: number;
  clients: number;
  pulls: number;
  /** One sync round of a client after a NOTIFY: its access generation, then memories and events after its cursors until the stream's end. */
  pull: LatencySummary;
  push: LatencySummary;
  describe: string;
}

const TEAMS = 4;
const PROJECTS = 5;
const SEED_CHUNK = 100_000;
const RUN_S = 60;
const PUSH_EVERY_MS = 1_000;
const PAGE = 500;

/**
 * A hub holding `memories` memories (and one event each) of `clients` people in four teams,
 * each sharing one project with their team, and `clients` sync clients, one per person, each
 * pushing a change a second and pulling on every NOTIFY, for a minute. The clients are the
 * daemon's own hub port (hub/pg-hub.ts), in this process: twenty daemon processes would measure
 * this machine's two cores, not the hub. Their cursors start at the stream's end, as a machine
 * that has synced before.
 */
export async function measureHubFleet(server: TestPostgres, options: { memories: number; clients: number; progress: (line: string) => void }): Promise<FleetResult> {
  const users = Array.from({ length: options.clients }, (_, i) => `u${i}`);
  const urls = await Promise.all(users.map((u) => server.createUser(u, `${u}-pw`)));
  await server.admin(
    `INSERT INTO memd.teams (name, owner) SELECT 't' || k, 'u' || k FROM generate_series(0, ${TEAMS - 1}) k`,
  );
  await server.admin(
    `INSERT INTO memd.team_members (team, member) SELECT 't' || (i % ${TEAMS}), 'u' || i FROM generate_series(0, ${options.clients - 1}) i ON CONFLICT DO NOTHING`,
  );
  await server.admin(`INSERT INTO memd.shares (owner, project, team) SELECT 'u' || i, 'proj-0', 't' || (i % ${TEAMS}) FROM generate_series(0, ${options.clients - 1}) i`);
  const seeded = performance.now();
  for (let from = 1; from <= options.memories; from += SEED_CHUNK) {
    const to = Math.min(options.memories, from + SEED_CHUNK - 1);
    options.progress(`fleet: seeding the hub, memories ${count(from)}-${count(to)} of ${count(options.memories)}`);
    await server.admin(
      `INSERT INTO memd.memories (id, owner, project, status, record, machine)
       SELECT 'SEED' || lpad(g::text, 22, '0'), 'u' || (g % ${options.clients}), 'proj-' || (g % ${PROJECTS}), 'active',
         jsonb_build_object('id', 'SEED' || lpad(g::text, 22, '0'), 'content', 'seeded memory ' || g || ': the deploy of service ' || (g % 97) || ' needs the feature flag ' || md5(g::text) || ' turned off first',
           'kind', 'fact', 'project', 'proj-' || (g % ${PROJECTS}), 'problem', '', 'solution', '', 'concepts', jsonb_build_array('deploy', 'flags'), 'files', '[]'::jsonb,
           'tags', '[]'::jsonb, 'confidence', 0.8, 'provenance', 'save', 'tier', 'regular', 'status', 'active', 'pinned', false, 'importance', 3, 'valence', 0,
           'intensity', 0, 'sessionId', '', 'sourceAgent', 'bench', 'createdAt', 1700000000000 + g, 'updatedAt', 1700000000000 + g, 'lastAccessedAt', null,
           'expiresAt', null, 'reviewAt', null, 'accessCount', 0, 'supersedes', '', 'supersededBy', '', 'archiveReason', '', 'invalidAt', null),
         'seed'
       FROM generate_series(${from}, ${to}) g`,
    );
    await server.admin(
      `INSERT INTO memd.events (key, memory_id, event)
       SELECT 'seed:' || g, 'SEED' || lpad(g::text, 22, '0'), jsonb_build_object('memoryId', 'SEED' || lpad(g::text, 22, '0'), 'at', 1700000000000 + g, 'action', 'created', 'sessionId', '', 'detail', '')
       FROM generate_series(${from}, ${to}) g`,
    );
  }
  await server.admin("ANALYZE memd.memories");
  await server.admin("ANALYZE memd.events");
  const seedS = (performance.now() - seeded) / 1000;
  const head = async (table: string): Promise<StreamCursor> => {
    const row = (await server.admin<{ cursor_txid: string; seq: string }>(`SELECT txid::text AS cursor_txid, seq FROM memd.${table} ORDER BY txid DESC, seq DESC LIMIT 1`)).rows[0];
    return row ? { txid: row.cursor_txid, seq: Number(row.seq) } : { txid: "0", seq: 0 };
  };
  const start = { memories: await head("memories"), events: await head("events") };
  const hubs: HubPort[] = await Promise.all(urls.map((url) => connectHub(url)));
  options.progress(`fleet: ${options.clients} clients pushing a change a second each and pulling on every NOTIFY, for ${RUN_S} s`);
  const pulls: number[] = [];
  const pushes: number[] = [];
  let received = 0;
  let stopping = false;
  const clients = hubs.map((hub, i) => {
    const cursor = { memories: start.memories, events: start.events };
    let running: Promise<void> | null = null;
    let again = false;
    const pull = async () => {
      const started = performance.now();
      await hub.state();
      for (;;) {
        const page = await hub.pullMemories(cursor.memories, PAGE, `bench-${i}`);
        received += page.length;
        const last = page.at(-1);
        if (last) cursor.memories = last.cursor;
        if (page.length < PAGE) break;
      }
      for (;;) {
        const page = await hub.pullEvents(cursor.events, PAGE, `bench-${i}`);
        const last = page.at(-1);
        if (last) cursor.events = last.cursor;
        if (page.length < PAGE) break;
      }
      pulls.push(performance.now() - started);
    };
    const schedule = () => {
      if (stopping) return;
      if (running) {
        again = true;
        return;
      }
      running = pull().finally(() => {
        running = null;
        if (again) {
          again = false;
          schedule();
        }
      });
    };
    // As a daemon does: its own pushes need no pull.
    hub.onChange((machine) => {
      if (machine !== `bench-${i}`) schedule();
    });
    const push = async () => {
      const record = buildMemory({ content: `client ${i} learned something at ${Date.now()}`, project: `proj-${i % PROJECTS}` }, ulid(), Date.now(), { maxContentBytes: 10_000 });
      const started = performance.now();
      await hub.push({ machine: `bench-${i}`, at: Date.now(), memories: [{ record, own: true, baseSeq: 0 }], events: [
        { key: `bench-${i}:${record.id}`, event: { memoryId: record.id, at: record.createdAt, action: "created", sessionId: "", detail: "" } },
      ] });
      pushes.push(performance.now() - started);
    };
    // Staggered, so the pushes spread over each second as a team's would.
    let timer: NodeJS.Timeout | undefined;
    const offset = setTimeout(() => {
      timer = setInterval(() => void push(), PUSH_EVERY_MS);
    }, (PUSH_EVERY_MS * i) / hubs.length);
    return { stop: () => (clearTimeout(offset), clearInterval(timer)), idle: () => running ?? Promise.resolve() };
  });
  await new Promise((resolve) => setTimeout(resolve, RUN_S * 1000));
  stopping = true;
  for (const client of clients) client.stop();
  await Promise.all(clients.map((c) => c.idle()));
  await Promise.all(hubs.map((hub) => hub.close()));
  return {
    hubMemories: options.memories,
    clients: options.clients,
    pulls: pulls.length,
    pull: summarize(pulls),
    push: summarize(pushes),
    describe: `hub seeded with ${count(options.memories)} memories and as many events in ${seedS.toFixed(0)} s (${options.clients} people, ${TEAMS} teams, each sharing one of their ${PROJECTS} projects); ${count(pushes.length)} pushes and ${count(pulls.length)} pull rounds in ${RUN_S} s, ${count(received)} memories received in all`,
  };
}
