import { normalizedContentHash } from "../lifecycle/content-hash.js";
import { extractEntities } from "../recall/entities.js";
import { SqliteStore, type SqliteStoreOptions } from "./sqlite/sqlite-store.js";

/** A store's options but the domain functions every production store is given. */
export type StoreOptions = Omit<SqliteStoreOptions, "entitiesOf" | "contentHashOf">;

/**
 * The store as memd runs it, for the daemon and the tests alike: it keeps the entity graph and
 * the hashes that find exact duplicates, so that no test passes against a store memd never opens.
 */
export function openStore(options: StoreOptions): SqliteStore {
  return new SqliteStore({ ...options, entitiesOf: extractEntities, contentHashOf: normalizedContentHash });
}
