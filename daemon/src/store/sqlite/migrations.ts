import type Database from "better-sqlite3";

/** One numbered schema change. Each runs in its own transaction with the version bump. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/**
 * An update of a memory that changed what it says or where it stands: every column but the
 * reads (access_count, last_accessed_at) and the content hash. The vault's file (migration 11)
 * and the hub's copy (migration 12) follow exactly these changes, and the change feed
 * (change-capture.ts) these and who wrote it.
 */
export const MEMORY_CHANGED = `          old.content IS NOT new.content OR old.kind IS NOT new.kind OR old.project IS NOT new.project
          OR old.problem IS NOT new.problem OR old.solution IS NOT new.solution
          OR old.concepts IS NOT new.concepts OR old.files IS NOT new.files OR old.tags IS NOT new.tags
          OR old.confidence IS NOT new.confidence OR old.provenance IS NOT new.provenance
          OR old.tier IS NOT new.tier OR old.status IS NOT new.status OR old.pinned IS NOT new.pinned
          OR old.importance IS NOT new.importance OR old.valence IS NOT new.valence
          OR old.intensity IS NOT new.intensity OR old.session_id IS NOT new.session_id
          OR old.source_agent IS NOT new.source_agent OR old.created_at IS NOT new.created_at
          OR old.updated_at IS NOT new.updated_at OR old.expires_at IS NOT new.expires_at
          OR old.review_at IS NOT new.review_at OR old.supersedes IS NOT new.supersedes
          OR old.superseded_by IS NOT new.superseded_by OR old.archive_reason IS NOT new.archive_reason
          OR old.invalid_at IS NOT new.invalid_at`;

/**
 * The schema, oldest first. Never edit a released migration: add a new one. Derived
 * indexes (FTS now, vectors later) must stay rebuildable from the memories table.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "memories, projects and the keyword index",
    up(db) {
      db.exec(`
        CREATE TABLE memories (
          seq              INTEGER PRIMARY KEY,
          id               TEXT NOT NULL UNIQUE,
          content          TEXT NOT NULL,
          kind             TEXT NOT NULL,
          project          TEXT NOT NULL,
          problem          TEXT NOT NULL DEFAULT '',
          solution         TEXT NOT NULL DEFAULT '',
          concepts         TEXT NOT NULL DEFAULT '[]',
          files            TEXT NOT NULL DEFAULT '[]',
          tags             TEXT NOT NULL DEFAULT '[]',
          confidence       REAL NOT NULL,
          provenance       TEXT NOT NULL,
          tier             TEXT NOT NULL,
          status           TEXT NOT NULL,
          pinned           INTEGER NOT NULL DEFAULT 0,
          importance       INTEGER NOT NULL DEFAULT 3,
          valence          REAL NOT NULL DEFAULT 0,
          intensity        REAL NOT NULL DEFAULT 0,
          session_id       TEXT NOT NULL DEFAULT '',
          source_agent     TEXT NOT NULL DEFAULT '',
          created_at       INTEGER NOT NULL,
          updated_at       INTEGER NOT NULL,
          last_accessed_at INTEGER,
          expires_at       INTEGER,
          review_at        INTEGER,
          access_count     INTEGER NOT NULL DEFAULT 0,
          supersedes       TEXT NOT NULL DEFAULT '',
          superseded_by    TEXT NOT NULL DEFAULT '',
          archive_reason   TEXT NOT NULL DEFAULT '',
          -- One index token per project (p, the name in hex, 0), so that the keyword
          -- index itself narrows a search to its projects before any ranking happens.
          project_key      TEXT GENERATED ALWAYS AS ('p' || lower(hex(project)) || '0') VIRTUAL
        );
        CREATE INDEX memories_project_status ON memories (project, status, id);
        CREATE INDEX memories_status ON memories (status, id);
        CREATE INDEX memories_session ON memories (session_id) WHERE session_id != '';

        CREATE TABLE projects (
          name       TEXT PRIMARY KEY,
          root       TEXT NOT NULL UNIQUE,
          created_at INTEGER NOT NULL
        );

        -- External-content FTS5 index over the searchable fields. The porter stemmer lets
        -- "migrations" find "migration"; unicode61 splits identifiers into parts that
        -- phrase queries match in order (see keywords/query-phrases.ts).
        CREATE VIRTUAL TABLE memories_fts USING fts5(
          content, problem, solution, concepts, files, tags, project_key,
          content = 'memories', content_rowid = 'seq',
          tokenize = 'porter unicode61 remove_diacritics 2'
        );
        -- Triggers keep the index in the same transaction as every write to memories.
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
          INSERT INTO memories_fts (rowid, content, problem, solution, concepts, files, tags, project_key)
          VALUES (new.seq, new.content, new.problem, new.solution, new.concepts, new.files, new.tags, new.project_key);
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, content, problem, solution, concepts, files, tags, project_key)
          VALUES ('delete', old.seq, old.content, old.problem, old.solution, old.concepts, old.files, old.tags, old.project_key);
        END;
        CREATE TRIGGER memories_fts_update
        AFTER UPDATE OF content, problem, solution, concepts, files, tags, project ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, content, problem, solution, concepts, files, tags, project_key)
          VALUES ('delete', old.seq, old.content, old.problem, old.solution, old.concepts, old.files, old.tags, old.project_key);
          INSERT INTO memories_fts (rowid, content, problem, solution, concepts, files, tags, project_key)
          VALUES (new.seq, new.content, new.problem, new.solution, new.concepts, new.files, new.tags, new.project_key);
        END;
      `);
    },
  },
  {
    version: 2,
    name: "embedding spaces, the embedding queue and vectors",
    up(db) {
      db.exec(`
        CREATE TABLE embedding_spaces (
          id           INTEGER PRIMARY KEY,
          provider     TEXT NOT NULL,
          model        TEXT NOT NULL,
          dimensions   INTEGER NOT NULL CHECK (dimensions > 0),
          state        TEXT NOT NULL CHECK (state IN ('building', 'active', 'retired')),
          created_at   INTEGER NOT NULL,
          activated_at INTEGER,
          quantizer    BLOB,
          UNIQUE (provider, model, dimensions)
        );

        -- The durable queue: a memory is queued by the same transaction that writes it.
        CREATE TABLE embedding_jobs (
          space_id        INTEGER NOT NULL REFERENCES embedding_spaces (id) ON DELETE CASCADE,
          memory_seq      INTEGER NOT NULL REFERENCES memories (seq) ON DELETE CASCADE,
          token           INTEGER NOT NULL,
          attempts        INTEGER NOT NULL DEFAULT 0,
          next_attempt_at INTEGER NOT NULL DEFAULT 0,
          last_error      TEXT NOT NULL DEFAULT '',
          PRIMARY KEY (space_id, memory_seq)
        ) WITHOUT ROWID;
        CREATE INDEX embedding_jobs_due ON embedding_jobs (space_id, next_attempt_at);

        -- Exact vectors (float32, little-endian) and the index's compact codes; both are
        -- derived data, rebuildable from the memories table.
        CREATE TABLE memory_vectors (
          space_id   INTEGER NOT NULL REFERENCES embedding_spaces (id) ON DELETE CASCADE,
          memory_seq INTEGER NOT NULL REFERENCES memories (seq) ON DELETE CASCADE,
          text_hash  TEXT NOT NULL,
          vector     BLOB NOT NULL,
          code       BLOB NOT NULL,
          PRIMARY KEY (space_id, memory_seq)
        ) WITHOUT ROWID;

        -- Tokens stay below 2^52 so that JavaScript numbers carry them exactly.
        CREATE TRIGGER memories_embed_insert AFTER INSERT ON memories BEGIN
          INSERT OR REPLACE INTO embedding_jobs (space_id, memory_seq, token)
          SELECT id, new.seq, (random() % 4503599627370496) FROM embedding_spaces WHERE state IN ('building', 'active');
        END;
        -- The project is the index partition, so moving a memory re-queues it as well.
        CREATE TRIGGER memories_embed_update
        AFTER UPDATE OF content, problem, solution, concepts, files, project ON memories BEGIN
          INSERT OR REPLACE INTO embedding_jobs (space_id, memory_seq, token)
          SELECT id, new.seq, (random() % 4503599627370496) FROM embedding_spaces WHERE state IN ('building', 'active');
        END;
      `);
    },
  },
  {
    version: 3,
    name: "the entity graph",
    up(db) {
      // Entities are extracted in JavaScript when memories are written; a store opened on a
      // database without links fills them in (see SqliteStore), so no backfill runs here.
      db.exec(`
        CREATE TABLE entities (
          id   INTEGER PRIMARY KEY,
          key  TEXT NOT NULL UNIQUE,
          type TEXT NOT NULL
        );
        CREATE TABLE memory_entities (
          entity_id  INTEGER NOT NULL REFERENCES entities (id),
          memory_seq INTEGER NOT NULL REFERENCES memories (seq) ON DELETE CASCADE,
          PRIMARY KEY (entity_id, memory_seq)
        ) WITHOUT ROWID;
        CREATE INDEX memory_entities_memory ON memory_entities (memory_seq);
      `);
    },
  },
  {
    version: 4,
    name: "supersede times and the memory event log",
    up(db) {
      db.exec(`
        ALTER TABLE memories ADD COLUMN invalid_at INTEGER;
        CREATE TABLE memory_events (
          id         INTEGER PRIMARY KEY,
          memory_id  TEXT NOT NULL,
          at         INTEGER NOT NULL,
          action     TEXT NOT NULL,
          session_id TEXT NOT NULL DEFAULT '',
          detail     TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX memory_events_memory ON memory_events (memory_id, id);
      `);
    },
  },
  {
    version: 5,
    name: "content hashes for dedup on write",
    up(db) {
      // Filled by the store (the normalisation lives in JavaScript); empty means not yet hashed.
      db.exec(`
        ALTER TABLE memories ADD COLUMN content_hash TEXT NOT NULL DEFAULT '';
        CREATE INDEX memories_content_hash ON memories (content_hash, project, kind) WHERE content_hash != '';
      `);
    },
  },
  {
    version: 6,
    name: "skill graduation decisions",
    up(db) {
      // One row per memory a person decided on: approved (with the SKILL.md written) or dismissed.
      db.exec(`
        CREATE TABLE skill_decisions (
          memory_id  TEXT PRIMARY KEY,
          decision   TEXT NOT NULL CHECK (decision IN ('approved', 'dismissed')),
          skill_path TEXT NOT NULL DEFAULT '',
          at         INTEGER NOT NULL
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 7,
    name: "MEMORY.md sync targets and per-project change counters",
    up(db) {
      // Every write to a memory raises its project's counter in the same transaction, so the
      // MEMORY.md syncer learns of saves, updates, archives, merges and maintenance alike by
      // reading one small row per synced project, whichever code path made the change.
      db.exec(`
        CREATE TABLE memory_file_syncs (
          project      TEXT PRIMARY KEY,
          path         TEXT NOT NULL UNIQUE,
          enabled_at   INTEGER NOT NULL,
          created_file INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        CREATE TABLE project_versions (
          project TEXT PRIMARY KEY,
          version INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TRIGGER memories_version_insert AFTER INSERT ON memories BEGIN
          INSERT INTO project_versions (project, version) VALUES (new.project, 1)
          ON CONFLICT (project) DO UPDATE SET version = version + 1;
        END;
        CREATE TRIGGER memories_version_update AFTER UPDATE ON memories BEGIN
          INSERT INTO project_versions (project, version) VALUES (new.project, 1)
          ON CONFLICT (project) DO UPDATE SET version = version + 1;
          INSERT INTO project_versions (project, version) SELECT old.project, 1 WHERE old.project != new.project
          ON CONFLICT (project) DO UPDATE SET version = version + 1;
        END;
        CREATE TRIGGER memories_version_delete AFTER DELETE ON memories BEGIN
          INSERT INTO project_versions (project, version) VALUES (old.project, 1)
          ON CONFLICT (project) DO UPDATE SET version = version + 1;
        END;
      `);
    },
  },
  {
    version: 8,
    name: "language model spend ledger",
    up(db) {
      // One row per UTC day: the daily spend cap must hold across restarts, so usage is durable.
      db.exec(`
        CREATE TABLE llm_usage (
          day           TEXT PRIMARY KEY,
          input_tokens  INTEGER NOT NULL DEFAULT 0,
          output_tokens INTEGER NOT NULL DEFAULT 0,
          calls         INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 9,
    name: "memories injected into agent sessions",
    up(db) {
      // Which memories Brief and Suggest already put into a session's context, so that none is
      // repeated there; rows of sessions idle for days are pruned (see SessionInjections.prune).
      db.exec(`
        CREATE TABLE session_injections (
          session_id TEXT NOT NULL,
          memory_id  TEXT NOT NULL,
          at         INTEGER NOT NULL,
          PRIMARY KEY (session_id, memory_id)
        ) WITHOUT ROWID;
        CREATE INDEX session_injections_at ON session_injections (at);
      `);
    },
  },
  {
    version: 10,
    name: "re-embed and re-sync only on real changes; memories waiting for dedup by meaning",
    up(db) {
      // A write sets every column, so "UPDATE OF content, ..." fired on a promotion or a new tag
      // too: re-embedding then, and re-running dedup on the result, was work and risk for nothing.
      // Reads (access counts) are not changes a MEMORY.md section needs to follow at once.
      // dedup_pending holds the memories written (not imported) while vectors are on, until their
      // vector exists and dedup by meaning has looked at them once.
      db.exec(`
        DROP TRIGGER memories_embed_update;
        CREATE TRIGGER memories_embed_update
        AFTER UPDATE OF content, problem, solution, concepts, files, project ON memories
        WHEN old.content IS NOT new.content OR old.problem IS NOT new.problem OR old.solution IS NOT new.solution
          OR old.concepts IS NOT new.concepts OR old.files IS NOT new.files OR old.project IS NOT new.project
        BEGIN
          INSERT OR REPLACE INTO embedding_jobs (space_id, memory_seq, token)
          SELECT id, new.seq, (random() % 4503599627370496) FROM embedding_spaces WHERE state IN ('building', 'active');
        END;
        DROP TRIGGER memories_version_update;
        CREATE TRIGGER memories_version_update AFTER UPDATE ON memories
        WHEN old.updated_at IS NOT new.updated_at OR old.status IS NOT new.status OR old.project IS NOT new.project
        BEGIN
          INSERT INTO project_versions (project, version) VALUES (new.project, 1)
          ON CONFLICT (project) DO UPDATE SET version = version + 1;
          INSERT INTO project_versions (project, version) SELECT old.project, 1 WHERE old.project != new.project
          ON CONFLICT (project) DO UPDATE SET version = version + 1;
        END;
        CREATE TABLE dedup_pending (memory_seq INTEGER PRIMARY KEY);
        CREATE INDEX memories_project_created ON memories (project, created_at);
      `);
    },
  },
  {
    version: 11,
    name: "the vault's durable outbox and the files it wrote",
    up(db) {
      // A memory is queued for its Markdown file by the same transaction that changes it, or
      // its history, or deletes it (a purge), while the vault is on (vault_state.enabled):
      // so a crash can never lose a file write. Reads (access counts) and the content hash are
      // not in the file and queue nothing. The token changes on every queueing, so a write
      // that finished after a newer change cannot clear that change's job (as embedding_jobs).
      // vault_files holds, per memory, the file it was last written to (relative to the vault)
      // and the hash of the text written, to tell memd's own files from a person's edits.
      db.exec(`
        CREATE TABLE vault_state (id INTEGER PRIMARY KEY CHECK (id = 1), enabled INTEGER NOT NULL DEFAULT 0, dir TEXT NOT NULL DEFAULT '');
        INSERT INTO vault_state (id) VALUES (1);
        CREATE TABLE vault_outbox (memory_id TEXT PRIMARY KEY, token INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE vault_files (memory_id TEXT PRIMARY KEY, path TEXT NOT NULL UNIQUE, hash TEXT NOT NULL) WITHOUT ROWID;
        CREATE TRIGGER memories_vault_insert AFTER INSERT ON memories WHEN (SELECT enabled FROM vault_state) BEGIN
          INSERT OR REPLACE INTO vault_outbox (memory_id, token) VALUES (new.id, random() % 4503599627370496);
        END;
        CREATE TRIGGER memories_vault_update AFTER UPDATE ON memories
        WHEN (SELECT enabled FROM vault_state) AND (
${MEMORY_CHANGED}
        )
        BEGIN
          INSERT OR REPLACE INTO vault_outbox (memory_id, token) VALUES (new.id, random() % 4503599627370496);
        END;
        CREATE TRIGGER memories_vault_delete AFTER DELETE ON memories WHEN (SELECT enabled FROM vault_state) BEGIN
          INSERT OR REPLACE INTO vault_outbox (memory_id, token) VALUES (old.id, random() % 4503599627370496);
        END;
        CREATE TRIGGER memory_events_vault AFTER INSERT ON memory_events WHEN (SELECT enabled FROM vault_state) BEGIN
          INSERT OR REPLACE INTO vault_outbox (memory_id, token) VALUES (new.memory_id, random() % 4503599627370496);
        END;
      `);
    },
  },
  {
    version: 12,
    name: "the hub's durable outbox, the hub's versions and the stream's cursors",
    up(db) {
      // While a hub is connected (hub_state.enabled), a memory is queued for the hub by the
      // transaction that changes it, as for the vault (migration 11), and each event this
      // machine records is queued too. What the sync worker stores from the hub runs with
      // hub_state.applying set for that one transaction, so nothing pulled is pushed back.
      // Deletions (a purge) are not queued: purging archived memories is each machine's own
      // housekeeping, and the hub keeps its archived copy. hub_rows holds, per memory, the
      // hub's seq of the version this machine last pushed or pulled: a push names it, so the
      // hub can tell an update of that version from a change made concurrently elsewhere.
      // memory_events.origin is the hub key of an event another machine recorded ('' for this
      // machine's own), so that each is stored once however often it is pulled.
      db.exec(`
        CREATE TABLE hub_state (
          id           INTEGER PRIMARY KEY CHECK (id = 1),
          enabled      INTEGER NOT NULL DEFAULT 0,
          applying     INTEGER NOT NULL DEFAULT 0,
          url          TEXT NOT NULL DEFAULT '',
          machine_id   TEXT NOT NULL,
          memory_txid  TEXT NOT NULL DEFAULT '0',
          memory_seq   INTEGER NOT NULL DEFAULT 0,
          event_txid   TEXT NOT NULL DEFAULT '0',
          event_seq    INTEGER NOT NULL DEFAULT 0,
          generation   INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO hub_state (id, machine_id) VALUES (1, lower(hex(randomblob(8))));
        CREATE TABLE hub_outbox (memory_id TEXT PRIMARY KEY, token INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE hub_event_outbox (event_id INTEGER PRIMARY KEY);
        CREATE TABLE hub_rows (memory_id TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
        ALTER TABLE memory_events ADD COLUMN origin TEXT NOT NULL DEFAULT '';
        CREATE UNIQUE INDEX memory_events_origin ON memory_events (origin) WHERE origin != '';
        CREATE TRIGGER memories_hub_insert AFTER INSERT ON memories
        WHEN (SELECT enabled AND NOT applying FROM hub_state) BEGIN
          INSERT OR REPLACE INTO hub_outbox (memory_id, token) VALUES (new.id, random() % 4503599627370496);
        END;
        CREATE TRIGGER memories_hub_update AFTER UPDATE ON memories
        WHEN (SELECT enabled AND NOT applying FROM hub_state) AND (
${MEMORY_CHANGED}
        )
        BEGIN
          INSERT OR REPLACE INTO hub_outbox (memory_id, token) VALUES (new.id, random() % 4503599627370496);
        END;
        CREATE TRIGGER memory_events_hub AFTER INSERT ON memory_events
        WHEN new.origin = '' AND (SELECT enabled AND NOT applying FROM hub_state) BEGIN
          INSERT OR IGNORE INTO hub_event_outbox (event_id) VALUES (new.id);
        END;
        -- A purge deletes its memories' events: an event that is gone has nothing to push.
        CREATE TRIGGER memory_events_hub_delete AFTER DELETE ON memory_events BEGIN
          DELETE FROM hub_event_outbox WHERE event_id = old.id;
        END;
      `);
    },
  },
  {
    version: 13,
    name: "who else wrote a memory, and the hub's identity, epoch and last notice",
    up(db) {
      // memories.author, edited_by and via_team say who else wrote a memory, as the hub recorded
      // it (memory/author.ts): only the hub sync sets them, so they queue nothing for the hub,
      // but the vault's file shows them, so its trigger follows them too. hub_state.hub_id and
      // hub_epoch are the hub's identity and epoch as this machine last saw them: when either
      // changes, the hub lost what this machine had pushed, and it is pushed again; notice says
      // what the sync noticed and did, for memctl hub status. The memories' stream is read again
      // once, so that those pulled before this version learn who wrote them.
      db.exec(`
        ALTER TABLE memories ADD COLUMN author TEXT NOT NULL DEFAULT '';
        ALTER TABLE memories ADD COLUMN edited_by TEXT NOT NULL DEFAULT '';
        ALTER TABLE memories ADD COLUMN via_team TEXT NOT NULL DEFAULT '';
        ALTER TABLE hub_state ADD COLUMN hub_id TEXT NOT NULL DEFAULT '';
        ALTER TABLE hub_state ADD COLUMN hub_epoch INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE hub_state ADD COLUMN notice TEXT NOT NULL DEFAULT '';
        ALTER TABLE hub_state ADD COLUMN notice_at INTEGER;
        UPDATE hub_state SET memory_txid = '0', memory_seq = 0;
        DROP TRIGGER memories_vault_update;
        CREATE TRIGGER memories_vault_update AFTER UPDATE ON memories
        WHEN (SELECT enabled FROM vault_state) AND (
${MEMORY_CHANGED}
          OR old.author IS NOT new.author OR old.edited_by IS NOT new.edited_by OR old.via_team IS NOT new.via_team
        )
        BEGIN
          INSERT OR REPLACE INTO vault_outbox (memory_id, token) VALUES (new.id, random() % 4503599627370496);
        END;
      `);
    },
  },
  {
    version: 14,
    name: "the injection record: what memd put into agents' contexts",
    up(db) {
      // One row per answer of Brief, Suggest or Recall (a prompt that got nothing too), with the
      // memories it carried in injected_memories. Kept for a bounded time and number of rows
      // (InjectionLog.prune, run by maintenance), apart from session_injections, which
      // de-duplicates within a session. A purged memory leaves the record, and so does the text
      // of every injection that carried it, which may quote it.
      db.exec(`
        CREATE TABLE injections (
          id           INTEGER PRIMARY KEY,
          at           INTEGER NOT NULL,
          session_id   TEXT NOT NULL,
          agent        TEXT NOT NULL,
          via          TEXT NOT NULL,
          kind         TEXT NOT NULL,
          project      TEXT NOT NULL,
          prompt       TEXT NOT NULL,
          text         TEXT NOT NULL,
          tokens       INTEGER NOT NULL,
          memory_count INTEGER NOT NULL
        );
        CREATE INDEX injections_at ON injections (at);
        CREATE INDEX injections_session ON injections (session_id, id);
        CREATE TABLE injected_memories (
          injection_id INTEGER NOT NULL REFERENCES injections (id) ON DELETE CASCADE,
          position     INTEGER NOT NULL,
          memory_id    TEXT NOT NULL,
          kind         TEXT NOT NULL,
          line         TEXT NOT NULL,
          score        REAL NOT NULL,
          why          TEXT NOT NULL,
          PRIMARY KEY (injection_id, position)
        ) WITHOUT ROWID;
        CREATE INDEX injected_memories_memory ON injected_memories (memory_id, injection_id);
        CREATE TRIGGER memories_injections_purge AFTER DELETE ON memories BEGIN
          UPDATE injections SET text = '' WHERE id IN (SELECT injection_id FROM injected_memories WHERE memory_id = old.id);
          DELETE FROM injected_memories WHERE memory_id = old.id;
        END;
      `);
    },
  },
  {
    version: 15,
    name: "contradictions found on write, and how each was settled",
    up(db) {
      // One row per pair of memories, whichever was written first: a pair settled as compatible
      // must not be asked about again when either memory is written or reinforced later.
      db.exec(`
        CREATE TABLE contradictions (
          id          INTEGER PRIMARY KEY,
          memory_id   TEXT NOT NULL,
          other_id    TEXT NOT NULL,
          found_at    INTEGER NOT NULL,
          via         TEXT NOT NULL,
          detector    TEXT NOT NULL,
          score       REAL NOT NULL,
          subject     TEXT NOT NULL DEFAULT '',
          newer_says  TEXT NOT NULL DEFAULT '',
          older_says  TEXT NOT NULL DEFAULT '',
          status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'settled')),
          resolution  TEXT NOT NULL DEFAULT '' CHECK (resolution IN ('', 'kept_newer', 'kept_older', 'compatible')),
          settled_at  INTEGER
        );
        CREATE UNIQUE INDEX contradictions_pair ON contradictions (min(memory_id, other_id), max(memory_id, other_id));
        CREATE INDEX contradictions_open ON contradictions (status, id);
        CREATE INDEX contradictions_other ON contradictions (other_id);
        CREATE INDEX contradictions_memory ON contradictions (memory_id);
      `);
    },
  },
  {
    version: 16,
    name: "a deleted memory takes its contradictions with it",
    up(db) {
      // As the injection record's trigger does: any path that deletes a memory (today only the
      // purge of archived ones) leaves no pair naming it.
      db.exec(`
        CREATE TRIGGER memories_contradictions_purge AFTER DELETE ON memories BEGIN
          DELETE FROM contradictions WHERE memory_id = old.id OR other_id = old.id;
        END;
      `);
    },
  },
];
