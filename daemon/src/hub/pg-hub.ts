import pg from "pg";
import { ConflictError, FailedPreconditionError, NotFoundError, SchemaTooNewError, UnavailableError } from "../errors.js";
import { conflictEvent, conflictKey, sameMemory, winnerOf, type MemoryVersion } from "./conflict.js";
import { checkHubSchema } from "./hub-migrate.js";
import type {
  HubPort, PulledEvent, PulledMemory, PushBatch, PushedMemory, PushOutcome, PushResult, StreamCursor, TeamAdmin, TeamInfo,
} from "./hub-port.js";
import type { MemoryRecord } from "../memory/memory.js";

/** The channel every push notifies, so that other daemons pull within a moment. */
const CHANNEL = "memd_changes";
/** No statement of the sync worker may hold a hub connection longer than this. */
const STATEMENT_TIMEOUT_MS = 60_000;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Connects to a hub as the person in the URL, checks that its schema is this memd's, and starts
 * listening for changes. Fails with UnavailableError when the hub cannot be reached, and with
 * FailedPreconditionError (or SchemaTooNewError) when it is not a hub this memd can use.
 */
export async function connectHub(url: string): Promise<HubPort> {
  const config: pg.PoolConfig = {
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
    return new PgHub(pool, listener, who.rows[0]?.user ?? "", (l) => (lost = l));
  } catch (error) {
    await Promise.allSettled([listener.end(), pool.end()]);
    throw hubError(error);
  }
}

class PgHub implements HubPort {
  readonly teams: TeamAdmin;

  constructor(
    private readonly pool: pg.Pool,
    private readonly listener: pg.Client,
    readonly user: string,
    private readonly setLost: (listener: (error: Error) => void) => void,
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
        await client.query<{ id: string; seq: string; record: MemoryRecord; machine: string }>(
          "SELECT id, seq, record, machine FROM memd.memories WHERE id = ANY($1::text[]) FOR UPDATE",
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
          else outcomes.push({ id: row.id, result: "lost", seq: Number(row.seq), winner: row.record });
        }
      }
      outcomes.push(...(await this.insert(client, inserts, batch.machine, itemByItem)));
      outcomes.push(...(await this.update(client, updates, batch.machine, itemByItem)));
      const events = [...batch.events.map((e) => ({ key: e.key, event: e.event as unknown, memoryId: e.event.memoryId })), ...conflicts];
      const changed = outcomes.some((o) => o.result !== "unchanged" && o.result !== "refused");
      const eventsStored = await this.recordEvents(client, events, changed, batch.machine, itemByItem);
      return { memories: outcomes, eventsStored, eventsRefused: events.length - eventsStored };
    }
  }

  private async insert(client: pg.PoolClient, memories: readonly PushedMemory[], machine: string, itemByItem: boolean): Promise<PushOutcome[]> {
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
   * Records events once each (by key), only for memories the hub holds for this user, and
   * notifies the other daemons when anything changed (`changed`: the memories did), in one
   * statement: each round trip to the hub is a write the daemon's event loop pays for. Returns
   * how many events the hub holds for this user (already recorded counts: it is there either way).
   */
  private async recordEvents(
    client: pg.PoolClient,
    events: readonly { key: string; event: unknown; memoryId: string }[],
    changed: boolean,
    machine: string,
    itemByItem: boolean,
  ): Promise<number> {
    const write = async (part: readonly { key: string; event: unknown; memoryId: string }[], notify = changed) => {
      const rows = part.map((e) => ({ key: e.key, memory_id: e.memoryId, event: e.event }));
      const result = await client.query<{ visible: string }>(
        `WITH x AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x (key text, memory_id text, event jsonb)),
              v AS (SELECT x.* FROM x WHERE EXISTS (SELECT 1 FROM memd.memories m WHERE m.id = x.memory_id)),
              added AS (INSERT INTO memd.events (key, memory_id, event) SELECT key, memory_id, event FROM v ON CONFLICT (key) DO NOTHING RETURNING 1)
         SELECT (SELECT count(*) FROM v) AS visible,
                CASE WHEN $2 OR EXISTS (SELECT 1 FROM added) THEN pg_notify('${CHANNEL}', $3) END AS notified`,
        [JSON.stringify(rows), notify, machine],
      );
      return [Number(result.rows[0]?.visible ?? 0)];
    };
    if (events.length === 0 && !changed) return 0;
    if (!itemByItem) return (await write(events))[0] ?? 0;
    // Item by item: the notice goes in a statement of its own, after whatever was refused.
    const counts = await eachAlone(client, events, (part) => write(part, false), () => [0]);
    const stored = counts.reduce((a, b) => a + b, 0);
    if (changed || stored > 0) await write([], true);
    return stored;
  }

  async pullMemories(after: StreamCursor, limit: number, machine: string): Promise<PulledMemory[]> {
    const rows = await this.stream<{ id: string; record: unknown; machine: string }>("memories", "id, record, machine", "machine <> $4", after, limit, machine);
    return rows.map((r) => ({ id: r.id, record: r.record, machine: r.machine, cursor: r.cursor }));
  }

  async pullEvents(after: StreamCursor, limit: number, machine: string): Promise<PulledEvent[]> {
    // A machine's own events are keyed "machine:id" (conflicts are keyed by the two versions, and come to both).
    const rows = await this.stream<{ key: string; memory_id: string; event: unknown }>("events", "key, memory_id, event", "left(key, length($4) + 1) <> $4 || ':'", after, limit, machine);
    return rows.map((r) => ({ key: r.key, memoryId: r.memory_id, event: r.event, cursor: r.cursor }));
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

  async accessGeneration(): Promise<number> {
    const rows = await this.query<{ generation: string }>("SELECT generation FROM memd.access_generations WHERE member = session_user", []);
    return Number(rows[0]?.generation ?? 0);
  }

  async close(): Promise<void> {
    this.setLost(() => undefined);
    await Promise.allSettled([this.listener.end(), this.pool.end()]);
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

class PgTeams implements TeamAdmin {
  constructor(private readonly pool: pg.Pool) {}

  async create(team: string): Promise<void> {
    await this.run("INSERT INTO memd.teams (name) VALUES ($1)", [team], { unique: `there is already a team named ${team} on the hub` });
  }

  async addMember(team: string, member: string): Promise<void> {
    const role = await this.run("SELECT 1 FROM pg_roles WHERE rolname = $1", [member]);
    if (role.rowCount === 0) throw new NotFoundError(`the hub has no user ${member}: its owner makes one (CREATE ROLE ${member} LOGIN PASSWORD '…' IN ROLE memd_user)`);
    await this.mustBeOwner(team, "add members");
    await this.run("INSERT INTO memd.team_members (team, member) VALUES ($1, $2) ON CONFLICT DO NOTHING", [team, member]);
  }

  async removeMember(team: string, member: string): Promise<boolean> {
    const removed = await this.run("DELETE FROM memd.team_members WHERE team = $1 AND member = $2 RETURNING member", [team, member]);
    if (removed.rowCount === 0) await this.mustExist(team);
    return (removed.rowCount ?? 0) > 0;
  }

  async share(project: string, team: string): Promise<boolean> {
    await this.mustExist(team);
    const teams = await this.run("SELECT $1 IN (SELECT memd.my_teams()) AS member", [team]);
    if (!teams.rows[0].member) throw new FailedPreconditionError(`you are not a member of team ${team}: its owner adds you first`);
    const added = await this.run("INSERT INTO memd.shares (project, team) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING team", [project, team]);
    return (added.rowCount ?? 0) > 0;
  }

  async unshare(project: string, team: string): Promise<boolean> {
    const removed = await this.run("DELETE FROM memd.shares WHERE owner = session_user AND project = $1 AND team = $2 RETURNING team", [project, team]);
    return (removed.rowCount ?? 0) > 0;
  }

  async list(): Promise<TeamInfo[]> {
    const teams = await this.run(
      `SELECT t.name, t.owner, coalesce((SELECT array_agg(m.member::text ORDER BY m.member) FROM memd.team_members m WHERE m.team = t.name), '{}') AS members
       FROM memd.teams t WHERE t.name IN (SELECT memd.my_teams()) OR t.owner = session_user ORDER BY t.name`,
      [],
    );
    const shares = await this.run("SELECT team, owner::text AS owner, project FROM memd.shares ORDER BY team, owner, project", []);
    return teams.rows.map((t) => ({
      name: t.name,
      owner: t.owner,
      members: t.members,
      shares: shares.rows.filter((s) => s.team === t.name).map((s) => ({ owner: s.owner, project: s.project })),
    }));
  }

  private async mustExist(team: string): Promise<void> {
    const found = await this.run("SELECT 1 FROM memd.teams WHERE name = $1", [team]);
    if (found.rowCount === 0) throw new NotFoundError(`the hub has no team named ${team}`);
  }

  private async mustBeOwner(team: string, what: string): Promise<void> {
    const found = await this.run("SELECT owner = session_user AS mine FROM memd.teams WHERE name = $1", [team]);
    if (found.rowCount === 0) throw new NotFoundError(`the hub has no team named ${team}`);
    if (!found.rows[0].mine) throw new FailedPreconditionError(`only the owner of team ${team} may ${what}`);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async run(text: string, values: unknown[], messages: { unique?: string } = {}): Promise<pg.QueryResult<any>> {
    try {
      return await this.pool.query(text, values);
    } catch (error) {
      if (messages.unique && (error as { code?: string }).code === "23505") throw new ConflictError(messages.unique, { cause: error });
      throw hubError(error);
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

/** Row-level security, a missing privilege, or one of the hub's checks (22xxx data, 23xxx integrity) refused the statement. */
function isRefusal(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  return code === "42501" || code.startsWith("22") || code.startsWith("23");
}

/**
 * The hub's failures as the daemon's own errors, cause kept: refusals and bad values are the
 * request's problem; anything else (connection refused, reset, timeout, the server shutting
 * down) means the hub is unavailable for now, and the worker tries again.
 */
export function hubError(error: unknown): Error {
  if (error instanceof ConflictError || error instanceof FailedPreconditionError || error instanceof NotFoundError || error instanceof UnavailableError) return error;
  if (error instanceof SchemaTooNewError) return error;
  const code = (error as { code?: string }).code ?? "";
  const message = error instanceof Error ? error.message : String(error);
  if (isRefusal(error)) return new FailedPreconditionError(`the hub refused: ${message}`, { cause: error });
  if (code === "28P01" || code === "28000") return new FailedPreconditionError(`the hub refused the login: ${message} (check the user and password in the hub URL)`, { cause: error });
  if (code === "3D000") return new FailedPreconditionError(`the hub's database does not exist: ${message}`, { cause: error });
  return new UnavailableError(`the hub is unreachable: ${message}`, { cause: error });
}
