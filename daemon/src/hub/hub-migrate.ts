import pg from "pg";
import { FailedPreconditionError, SchemaTooNewError } from "../errors.js";
import { hubError } from "./hub-errors.js";
import type { HubSchemaChange } from "./hub-port.js";
import { HUB_MIGRATIONS, HUB_SCHEMA_VERSION, type HubMigration } from "./hub-schema.js";

/** Serialises migrations of one hub: two memd owners running `memctl hub init` at once take turns. */
const MIGRATION_LOCK = 0x6d656d64; // "memd"

/** Connects to the hub at `ownerUrl` as its owner (the URL is not kept) and migrates its schema. */
export async function initHub(ownerUrl: string, writtenBy: string): Promise<HubSchemaChange> {
  const client = new pg.Client({ connectionString: ownerUrl, connectionTimeoutMillis: 5_000, application_name: "memd hub init" });
  // A connection that fails later must not end the daemon.
  client.on("error", () => undefined);
  try {
    await client.connect();
    return await migrateHub(client, writtenBy);
  } catch (error) {
    throw hubError(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Brings the hub's schema up to this memd's as its owner, one migration per transaction; refuses a hub a newer memd wrote. */
export async function migrateHub(
  client: pg.ClientBase,
  writtenBy: string,
  migrations: readonly HubMigration[] = HUB_MIGRATIONS,
): Promise<HubSchemaChange> {
  const newest = migrations.at(-1)?.version ?? 0;
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query("CREATE SCHEMA IF NOT EXISTS memd");
    await client.query(
      "CREATE TABLE IF NOT EXISTS memd.hub_meta (id int PRIMARY KEY CHECK (id = 1), schema_version int NOT NULL, written_by text NOT NULL)",
    );
    const from = await readVersion(client);
    refuseNewer(from, newest);
    for (const migration of migrations) {
      if (migration.version <= from) continue;
      await client.query(migration.sql);
      await client.query(
        "INSERT INTO memd.hub_meta (id, schema_version, written_by) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET schema_version = $1, written_by = $2",
        [migration.version, writtenBy],
      );
    }
    await client.query("GRANT SELECT ON memd.hub_meta TO memd_user");
    const hidden = await client.query<{ hidden: boolean }>(
      "SELECT NOT has_table_privilege('memd_user', 'pg_catalog.pg_stat_user_tables', 'SELECT') AND NOT has_column_privilege('memd_user', 'pg_catalog.pg_class', 'reltuples', 'SELECT') AS hidden",
    );
    await client.query("COMMIT");
    return { from, to: Math.max(from, newest), statisticsHidden: hidden.rows[0]?.hidden === true };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * Checks, as a user, that the hub is at exactly this memd's schema: a newer hub is refused (its
 * rows may mean what this memd cannot know), an older or missing one needs its owner to run
 * `memctl hub init`.
 */
export async function checkHubSchema(client: pg.ClientBase, known = HUB_SCHEMA_VERSION): Promise<number> {
  const exists = await client.query<{ present: boolean }>("SELECT to_regclass('memd.hub_meta') IS NOT NULL AS present");
  if (!exists.rows[0]?.present) {
    throw new FailedPreconditionError("that database is not a memd hub yet: its owner runs `memctl hub init <owner's URL>` once to make the hub's schema");
  }
  const version = await readVersion(client);
  refuseNewer(version, known);
  if (version < known) {
    throw new FailedPreconditionError(`the hub's schema is at version ${version} and this memd needs ${known}: its owner runs \`memctl hub init <owner's URL>\` to upgrade it`);
  }
  return version;
}

async function readVersion(client: pg.ClientBase): Promise<number> {
  const row = await client.query<{ schema_version: number }>("SELECT schema_version FROM memd.hub_meta WHERE id = 1");
  return row.rows[0]?.schema_version ?? 0;
}

function refuseNewer(version: number, known: number): void {
  if (version > known) {
    throw new SchemaTooNewError(`the hub was written by a newer memd (hub schema ${version}, this memd knows up to ${known}): upgrade memd on this machine`);
  }
}
