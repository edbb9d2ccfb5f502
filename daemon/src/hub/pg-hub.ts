import net from "node:net";
import pg from "pg";
import { FailedPreconditionError, UnavailableError } from "../errors.js";
import type { HubRecord } from "../memory/author.js";
import { conflictEvent, conflictKey, sameMemory, winnerOf, type MemoryVersion } from "./conflict.js";
import { hubError, isRefusal } from "./hub-errors.js";
import { checkHubSchema } from "./hub-migrate.js";
import type { HubPort, HubState, PulledEvent, PulledMemory, PushBatch, PushedMemory, PushOutcome, PushResult, StreamCursor, TeamAdmin } from "./hub-port.js";
import { PgTeams } from "./pg-teams.js";

/** The channel every push notifies, so that other daemons pull within a moment. */
const CHANNEL = "memd_changes";
/** No statement of the sync worker may hold a hub connection longer than this. */
const STATEMENT_TIMEOUT_MS = 60_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** How long closing waits for the hub to say goodbye before its connections are cut. */
const CLOSE_WAIT_MS = 1_000;
/**
 * Who wrote a row of memd.memories, from the hub's own columns (see RowAuthors): its owner, the
 * writer of its version, and a team of the reader's it is shared with (not looked up for the
 * reader's own rows, most of any pull, which need none).
 */
const AUTHORS = `owner::text AS owner, written_by::text AS written_by,
  CASE WHEN owner = session_user AND written_by = session_user THEN '' ELSE
    coalesce((SELECT min(s.team) FROM memd.shares s WHERE s.owner = memories.owner AND s.project = memories.project AND s.team IN (SELECT memd.my_teams())), '') END AS team`;

/**
 * Connects to a hub as the person in the URL, checks that its schema is this memd's, and starts
 * listening for changes. Fails with UnavailableError when the hub cannot be reached, and with
 * FailedPreconditionError (or SchemaTooNewError) when it is not a hub this memd can use.
 */
export async function connectHub(url: string): Promise<HubPort> {
  // Every connection's socket, so that a hub that stopped answering (a hung host) cannot hold a
  // close, and with it the daemon's shutdown: pg ends a connection politely, waiting for the
  // server's goodbye, which such a hub never sends.
  const sockets = new Set<net.Socket>();
  const config: pg.PoolConfig = {
    stream: () => {
      const socket = new net.Socket();
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
      return socket;
    },
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    application_name: "memd",
    // A hub that went away without a word (a laptop's network changed) is noticed, not waited on.
    keepAlive: true,
  };
  const pool = new pg.Pool(config);
  let lost: ((error: Error) => void) | undefined;
  const loseOnce = (error: Error) => {
    const listener = lost;
    lost = undefined;
    listener?.(error);
  };
  // A hub that dies must never end the daemon. pg's clients emit 'error' when their connection
  // ends, and an 'error' nobody listens to is thrown: the pool listens on its idle clients only,
  // so every client gets a listener of its own from birth, for while it is checked out (in the
  // middle of a push) too. The query under way fails as well; the worker then reconnects.
  pool.on("error", loseOnce);
  pool.on("connect", (client) => client.on("error", loseOnce));
  const listener = new pg.Client(config);
  listener.on("error", loseOnce);
  listener.on("end", () => loseOnce(new UnavailableError("the hub closed the connection")));
  try {
    await listener.connect();
    await checkHubSchema(listener);
    const who = await listener.query<{ user: string }>("SELECT session_user AS user");
    await listener.query(`LISTEN ${CHANNEL}`);
    return new PgHub(pool, listener, who.rows[0]?.user ?? "", (l) => (lost = l), sockets);
  } catch (error) {
    await closeWithin(listener, pool, sockets);
    throw hubError(error);
  }
}

/** Ends the connections politely, or, when the hub has not answered within CLOSE_WAIT_MS, cuts them. */
async function closeWithin(listener: pg.Client, pool: pg.Pool, sockets: ReadonlySet<net.Socket>): Promise<void> {
  const ended = Promise.allSettled([listener.end(), pool.end()]);
  let timer: NodeJS.Timeout | undefined;
  const polite = await Promise.race([ended.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS)))]);
  clearTimeout(timer);
  if (polite) return;
  for (const socket of sockets) socket.destroy();
  await ended;
}

class PgHub implements HubPort {
  readonly teams: TeamAdmin;

  constructor(
    private readonly pool: pg.Pool,
    private readonly listener: pg.Client,
    readonly user: string,
    private readonly setLost: (listener: (error: Error) => void) => void,
    private readonly sockets: ReadonlySet<net.Socket>,
  ) {
    this.teams = new PgTeams(pool);
  }

  onChange(listener: (machine: string) => void): void {
    this.listener.on("notification", (message) => {
      if (message.channel === CHANNEL) listener(message.payload ?? "");
    });
  }

  onLost(listener: (error: Error) => void): void {
    this.setLost(listener);
  }

  /**
   * One transaction, its statements written for the whole batch at once; when the hub refuses
   * one of them (see eachAlone), the transaction is rolled back and written again item by item,
   * so that only the refused items are left out. Savepoints for every statement of every push
   * would cost two more round trips each.
   */
  async push(batch: PushBatch): Promise<PushResult> {
    try {
      return await this.inTransaction((client) => this.write(client, batch, false));
    } catch (error) {
      if (!isRefusal((error as Error).cause ?? error)) throw error;
      return this.inTransaction((client) => this.write(client, batch, true));
    }
  }

  private async write(client: pg.PoolClient, batch: PushBatch, itemByItem: boolean): Promise<PushResult> {
    {
      const outcomes: PushOutcome[] = [];
      const conflicts: { key: string; event: unknown; memoryId: string }[] = [];
      const ids = batch.memories.map((m) => m.record.id);
      const current = ids.length === 0 ? [] : (
        await client.query<{ id: string; seq: string; record: HubRecord; machine: string; owner: string; written_by: string; team: string }>(
          `SELECT id, seq, record, machine, ${AUTHORS} FROM memd.memories WHERE id = ANY($1::text[]) FOR UPDATE`,
          [ids],
        )
      ).rows;
      const held = new Map(current.map((row) => [row.id, row]));
      const inserts: PushedMemory[] = [];
      const updates: { memory: PushedMemory; result: "stored" | "won" }[] = [];
      for (const memory of batch.memories) {
        const row = held.get(memory.record.id);
        if (!row) {
          inserts.push(memory);
        } else if (Number(row.seq) === memory.baseSeq) {
          // The hub holds the version this machine last had: this is its next one.
          updates.push({ memory, result: "stored" });
        } else if (sameMemory(row.record, memory.record)) {
          // Already there: a push retried after its settle was lost.
          outcomes.push({ id: row.id, result: "unchanged", seq: Number(row.seq) });
        } else {
          // Changed on the hub since this machine last had it: the rule in conflict.ts decides.
          const mine: MemoryVersion = { record: memory.record, machine: batch.machine };
          const theirs: MemoryVersion = { record: row.record, machine: row.machine };
          const winner = winnerOf(mine, theirs);
          const loser = winner === mine ? theirs : mine;
          conflicts.push({ key: conflictKey(loser, winner), event: conflictEvent(loser, winner, batch.at), memoryId: row.id });
          if (winner === mine) updates.push({ memory, result: "won" });
          else outcomes.push({ id: row.id, result: "lost", seq: Number(row.seq), winner: row.record, winnerBy: { owner: row.owner, writtenBy: row.written_by, team: row.team } });
        }
      }
      outcomes.push(...(await this.insert(client, inserts, batch.machine, itemByItem)));
      outcomes.push(...(await this.update(client, updates, batch.machine, itemByItem)));
      const events = [...batch.events.map((e) => ({ key: e.key, event: e.event as unknown, memoryId: e.event.memoryId })), ...conflicts];
      const changed = outcomes.some((o) => o.result !== "unchanged" && o.result !== "refused");
      const eventsRefused = await this.recordEvents(client, events, changed, batch.machine, itemByItem);
      return { memories: outcomes, eventsStored: events.length - eventsRefused.length, eventsRefused };
    }
  }

  private async insert(client: pg.PoolClient, memories: readonly PushedMemory[], machine: string, itemByItem: boolean): Promise<PushOutcome[]> {
    // Another person's memory the hub does not hold (lost, or never seen by it) is theirs to push:
    // written from here, the hub would record it as this person's.
    const notOwn = memories.filter((m) => !m.own).map((m): PushOutcome => ({
      id: m.record.id,
      result: "refused",
      reason: "another person's memory that the hub does not hold: only its owner's machines may put it there again",
    }));
    return [...notOwn, ...(await this.insertOwn(client, memories.filter((m) => m.own), machine, itemByItem))];
  }

  private async insertOwn(client: pg.PoolClient, memories: readonly PushedMemory[], machine: string, itemByItem: boolean): Promise<PushOutcome[]> {
    if (memories.length === 0) return [];
    const write = async (part: readonly PushedMemory[]) => {
      const rows = part.map((m) => ({ id: m.record.id, project: m.record.project, status: m.record.status, record: m.record }));
      // An id already on the hub that this user cannot see is another person's memory: nothing is
      // written over it (DO NOTHING), and this machine's memory is refused.
      const stored = await client.query<{ id: string; seq: string }>(
        `INSERT INTO memd.memories (id, project, status, record, machine)
         SELECT x.id, x.project, x.status, x.record, $2 FROM jsonb_to_recordset($1::jsonb) AS x (id text, project text, status text, record jsonb)
         ON CONFLICT (id) DO NOTHING RETURNING id, seq`,
        [JSON.stringify(rows), machine],
      );
      const seqs = new Map(stored.rows.map((r) => [r.id, Number(r.seq)]));
      return part.map((m): PushOutcome => {
        const seq = seqs.get(m.record.id);
        return seq === undefined
          ? { id: m.record.id, result: "refused", reason: "the hub holds another person's memory with this id, not shared with you" }
          : { id: m.record.id, result: "stored", seq };
      });
    };
    return itemByItem ? eachAlone(client, memories, write, (m, reason) => [{ id: m.record.id, result: "refused", reason }]) : write(memories);
  }

  /** Writes the versions that replace what the hub holds. */
  private async update(client: pg.PoolClient, updates: readonly { memory: PushedMemory; result: "stored" | "won" }[], machine: string, itemByItem: boolean): Promise<PushOutcome[]> {
    if (updates.length === 0) return [];
    const write = async (part: typeof updates) => {
      const rows = part.map(({ memory: m }) => ({ id: m.record.id, project: m.record.project, status: m.record.status, record: m.record }));
      const written = await client.query<{ id: string; seq: string }>(
        `UPDATE memd.memories m SET project = x.project, status = x.status, record = x.record, machine = $2,
           txid = pg_current_xact_id(), seq = nextval('memd.change_seq'), changed_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS x (id text, project text, status text, record jsonb) WHERE m.id = x.id RETURNING m.id, m.seq`,
        [JSON.stringify(rows), machine],
      );
      const seqs = new Map(written.rows.map((r) => [r.id, Number(r.seq)]));
      return part.map(({ memory, result }): PushOutcome => ({ id: memory.record.id, result, seq: seqs.get(memory.record.id) as number }));
    };
    return itemByItem ? eachAlone(client, updates, write, (u, reason) => [{ id: u.memory.record.id, result: "refused", reason }]) : write(updates);
  }

  /**
   * Records events once each (by this person's key), only for memories the hub holds for this
   * user, and notifies the other daemons when anything changed (`changed`: the memories did), in
   * one statement: each round trip to the hub is a write the daemon's event loop pays for.
   * Returns the events refused, with why: a key this person already used for a different event
   * (another machine with this machine's id: a copied database) is refused, not silently kept.
   */
  private async recordEvents(
    client: pg.PoolClient,
    events: readonly { key: string; event: unknown; memoryId: string }[],
    changed: boolean,
    machine: string,
    itemByItem: boolean,
  ): Promise<{ key: string; reason: string }[]> {
    const write = async (part: readonly { key: string; event: unknown; memoryId: string }[], notify = changed) => {
      const rows = part.map((e) => ({ key: e.key, memory_id: e.memoryId, event: e.event }));
      // The CTEs read the table as it was before this statement: "taken" sees only earlier rows.
      const result = await client.query<{ unheld: string[]; taken: string[] }>(
        `WITH x AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x (key text, memory_id text, event jsonb)),
              v AS (SELECT x.* FROM x WHERE EXISTS (SELECT 1 FROM memd.memories m WHERE m.id = x.memory_id)),
              taken AS (SELECT v.key FROM v JOIN memd.events e ON e.owner = session_user AND e.key = v.key WHERE e.event <> v.event OR e.memory_id <> v.memory_id),
              added AS (INSERT INTO memd.events (key, memory_id, event) SELECT key, memory_id, event FROM v ON CONFLICT (owner, key) DO NOTHING RETURNING 1)
         SELECT coalesce((SELECT array_agg(x.key) FROM x WHERE NOT EXISTS (SELECT 1 FROM v WHERE v.key = x.key)), '{}') AS unheld,
                coalesce((SELECT array_agg(key) FROM taken), '{}') AS taken,
                CASE WHEN $2 OR EXISTS (SELECT 1 FROM added) THEN pg_notify('${CHANNEL}', $3) END AS notified`,
        [JSON.stringify(rows), notify, machine],
      );
      const row = result.rows[0] ?? { unheld: [], taken: [] };
      return [
        ...row.unheld.map((key) => ({ key, reason: "the hub does not hold its memory for you" })),
        ...row.taken.map((key) => ({ key, reason: "the hub holds a different event of yours under this key (is another machine using this machine's id, from a copied database?)" })),
      ];
    };
    if (events.length === 0 && !changed) return [];
    if (!itemByItem) return write(events);
    // Item by item: the notice goes in a statement of its own, after whatever was refused.
    const refused = await eachAlone(client, events, (part) => write(part, false), (e, reason) => [{ key: e.key, reason }]);
    if (changed || refused.length < events.length) await write([], true);
    return refused;
  }

  async pullMemories(after: StreamCursor, limit: number, machine: string): Promise<PulledMemory[]> {
    // Who owns and who wrote a version come from the hub's own columns, never from the record.
    // A version is this machine's own only if this person wrote it from here: a machine id is no
    // secret, and a teammate writing under it must not keep their change from this machine.
    const rows = await this.stream<{ id: string; record: unknown; machine: string; owner: string; written_by: string; team: string }>(
      "memories",
      `id, record, machine, ${AUTHORS}`,
      "NOT (machine = $4 AND written_by = session_user)",
      after,
      limit,
      machine,
    );
    return rows.map((r) => ({ id: r.id, record: r.record, machine: r.machine, owner: r.owner, writtenBy: r.written_by, team: r.team, cursor: r.cursor }));
  }

  async pullEvents(after: StreamCursor, limit: number, machine: string): Promise<PulledEvent[]> {
    // A machine's own events are this person's, keyed "machine:id" (conflicts are keyed by the two versions, and come to both).
    const rows = await this.stream<{ key: string; owner: string; memory_id: string; event: unknown }>(
      "events",
      "key, owner::text AS owner, memory_id, event",
      "NOT (owner = session_user AND left(key, length($4) + 1) = $4 || ':')",
      after,
      limit,
      machine,
    );
    return rows.map((r) => ({ key: r.key, owner: r.owner, memoryId: r.memory_id, event: r.event, cursor: r.cursor }));
  }

  /**
   * The rows of a table's change stream after the cursor that this user may see and `others`
   * admits (a condition on $4, `machine`), in (txid, seq) order, below the oldest transaction
   * still running (see hub-schema.ts). The cursor's txid goes out as text (JavaScript numbers
   * stop at 2^53) under a name of its own: "ORDER BY txid" must sort the xid8 column, not its text.
   */
  private async stream<T extends pg.QueryResultRow>(
    table: "memories" | "events",
    columns: string,
    others: string,
    after: StreamCursor,
    limit: number,
    machine: string,
  ): Promise<(T & { cursor: StreamCursor })[]> {
    const rows = await this.query<T & { cursor_txid: string; seq: string }>(
      `SELECT ${columns}, txid::text AS cursor_txid, seq FROM memd.${table}
       WHERE (txid, seq) > ($1::xid8, $2::bigint) AND txid < pg_snapshot_xmin(pg_current_snapshot()) AND ${others}
       ORDER BY txid, seq LIMIT $3`,
      [after.txid, after.seq, limit, machine],
    );
    return rows.map((r) => ({ ...r, cursor: { txid: r.cursor_txid, seq: Number(r.seq) } }));
  }

  async state(): Promise<HubState> {
    const rows = await this.query<{ hub_id: string; epoch: string; generation: string | null }>(
      "SELECT hub_id::text AS hub_id, epoch, (SELECT generation FROM memd.access_generations WHERE member = session_user) AS generation FROM memd.hub_meta WHERE id = 1",
      [],
    );
    const row = rows[0];
    if (!row) throw new FailedPreconditionError("the hub's memd.hub_meta has no row: its owner runs `memctl hub init <owner's URL>` again");
    return { hubId: row.hub_id, epoch: Number(row.epoch), generation: Number(row.generation ?? 0) };
  }

  async missingMemories(acknowledged: readonly { id: string; seq: number }[]): Promise<string[]> {
    if (acknowledged.length === 0) return [];
    const rows = await this.query<{ id: string }>(
      `SELECT x.id FROM unnest($1::text[], $2::bigint[]) AS x (id, seq)
       WHERE NOT EXISTS (SELECT 1 FROM memd.memories m WHERE m.id = x.id AND m.owner = session_user AND m.seq >= x.seq)`,
      [acknowledged.map((a) => a.id), acknowledged.map((a) => a.seq)],
    );
    return rows.map((r) => r.id);
  }

  async missingEvents(keys: readonly string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const rows = await this.query<{ key: string }>(
      "SELECT k AS key FROM unnest($1::text[]) AS k WHERE NOT EXISTS (SELECT 1 FROM memd.events e WHERE e.owner = session_user AND e.key = k)",
      [keys],
    );
    return rows.map((r) => r.key);
  }

  async close(): Promise<void> {
    this.setLost(() => undefined);
    await closeWithin(this.listener, this.pool, this.sockets);
  }

  private async query<T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> {
    try {
      return (await this.pool.query<T>(text, values)).rows;
    } catch (error) {
      throw hubError(error);
    }
  }

  private async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw hubError(error);
    }
    let failure: Error | undefined;
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      failure = error as Error;
      await client.query("ROLLBACK").catch(() => undefined);
      throw hubError(error);
    } finally {
      // A connection that failed (but for a refusal, which leaves it sound) may be broken: it is
      // closed, not handed to the next push.
      client.release(failure !== undefined && !isRefusal(failure) ? failure : undefined);
    }
  }
}

async function savepoint<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query("SAVEPOINT memd_part");
  try {
    const result = await work();
    await client.query("RELEASE SAVEPOINT memd_part");
    return result;
  } catch (error) {
    await client.query("ROLLBACK TO SAVEPOINT memd_part");
    throw error;
  }
}

/**
 * Writes each item on its own, in a savepoint, for a batch the hub refused (row-level security,
 * or a value its checks refuse: a team member's change that would take a memory out of its
 * share, a record too large): only the refused items are left out, and one bad item can never
 * hold up everything queued behind it. `refused` says what a refused item gives.
 */
async function eachAlone<T, R>(
  client: pg.PoolClient,
  items: readonly T[],
  write: (part: readonly T[]) => Promise<R[]>,
  refused: (item: T, reason: string) => R[],
): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) {
    try {
      results.push(...(await savepoint(client, () => write([item]))));
    } catch (error) {
      if (!isRefusal(error)) throw error;
      results.push(...refused(item, `the hub refused it: ${(error as Error).message}`));
    }
  }
  return results;
}
