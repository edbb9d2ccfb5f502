/**
 * The hub's schema in PostgreSQL, oldest first, versioned like the local database's (see
 * store/sqlite/migrations.ts): never edit a released migration, add one. They run as the hub's
 * owner (`memctl hub init`); users' daemons only check the version.
 *
 * Identity is the login role (session_user): every person connects as their own role, a member
 * of memd_user, and row-level security decides what each sees. A memory is its owner's; it is
 * visible to the members of a team only while its owner shares its project with that team
 * (memd.shares), and never while it is staged (a guess stays with its owner until promoted).
 *
 * The change stream: every write to a memory or an event stamps the row with the writing
 * transaction's id (txid) and a number from one sequence. A reader takes rows in (txid, seq)
 * order below its snapshot's xmin, the oldest transaction still running: every transaction
 * below it has ended, so no row can later appear behind a reader's cursor (a sequence alone
 * would let a slow transaction commit a lower number after a reader passed it).
 */
export interface HubMigration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The one rule of visibility, for reading and for writing a memory: yours, or shared with a team
 * of yours and not staged.
 */
const VISIBLE = `owner = session_user OR (status <> 'staged' AND EXISTS (
          SELECT 1 FROM memd.shares s WHERE s.owner = memories.owner AND s.project = memories.project AND s.team IN (SELECT memd.my_teams())))`;

export const HUB_MIGRATIONS: readonly HubMigration[] = [
  {
    version: 1,
    name: "memories, events, teams and shares, with row-level security",
    sql: `
      DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memd_user') THEN CREATE ROLE memd_user NOLOGIN; END IF;
      END $$;
      GRANT USAGE ON SCHEMA memd TO memd_user;
      CREATE SEQUENCE memd.change_seq;
      GRANT USAGE ON SEQUENCE memd.change_seq TO memd_user;

      CREATE TABLE memd.memories (
        id         text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
        owner      name NOT NULL DEFAULT session_user,
        project    text NOT NULL CHECK (length(project) BETWEEN 1 AND 256),
        status     text NOT NULL CHECK (status IN ('active', 'staged', 'archived', 'superseded')),
        record     jsonb NOT NULL CHECK (jsonb_typeof(record) = 'object' AND octet_length(record::text) <= 1048576),
        machine    text NOT NULL CHECK (length(machine) BETWEEN 1 AND 64),
        txid       xid8 NOT NULL DEFAULT pg_current_xact_id(),
        seq        bigint NOT NULL DEFAULT nextval('memd.change_seq'),
        changed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX memories_stream ON memd.memories (txid, seq);
      CREATE INDEX memories_owner_project ON memd.memories (owner, project);

      CREATE TABLE memd.events (
        key       text PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 200),
        memory_id text NOT NULL REFERENCES memd.memories (id),
        event     jsonb NOT NULL CHECK (jsonb_typeof(event) = 'object' AND octet_length(event::text) <= 2097152),
        txid      xid8 NOT NULL DEFAULT pg_current_xact_id(),
        seq       bigint NOT NULL DEFAULT nextval('memd.change_seq')
      );
      CREATE INDEX events_stream ON memd.events (txid, seq);
      CREATE INDEX events_memory ON memd.events (memory_id);

      CREATE TABLE memd.teams (
        name       text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
        owner      name NOT NULL DEFAULT session_user,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE memd.team_members (
        team   text NOT NULL REFERENCES memd.teams (name) ON DELETE CASCADE,
        member name NOT NULL,
        PRIMARY KEY (team, member)
      );
      CREATE INDEX team_members_member ON memd.team_members (member);
      CREATE TABLE memd.shares (
        owner   name NOT NULL DEFAULT session_user,
        project text NOT NULL CHECK (length(project) BETWEEN 1 AND 256),
        team    text NOT NULL REFERENCES memd.teams (name) ON DELETE CASCADE,
        PRIMARY KEY (owner, project, team)
      );
      -- Raised for a member whenever what they may see grows by more than changed rows (they
      -- joined a team): their daemons then read the stream again from the start.
      CREATE TABLE memd.access_generations (
        member     name PRIMARY KEY,
        generation bigint NOT NULL
      );

      -- The teams of the connected person. SECURITY DEFINER so that policies can ask it without
      -- team_members' own policy asking it again (a policy may not recurse).
      CREATE FUNCTION memd.my_teams() RETURNS SETOF text LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS
        $f$ SELECT team FROM memd.team_members WHERE member = session_user $f$;

      -- Sharing a project re-stamps its memories, so that the team's daemons (and nobody else's)
      -- read them from the stream as if just written; joining a team starts the member's reading over.
      CREATE FUNCTION memd.after_share() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $f$
      BEGIN
        UPDATE memd.memories SET txid = pg_current_xact_id(), seq = nextval('memd.change_seq')
          WHERE owner = NEW.owner AND project = NEW.project;
        UPDATE memd.events e SET txid = pg_current_xact_id(), seq = nextval('memd.change_seq')
          FROM memd.memories m WHERE e.memory_id = m.id AND m.owner = NEW.owner AND m.project = NEW.project;
        PERFORM pg_notify('memd_changes', '');
        RETURN NEW;
      END $f$;
      CREATE TRIGGER shares_restamp AFTER INSERT ON memd.shares FOR EACH ROW EXECUTE FUNCTION memd.after_share();
      CREATE FUNCTION memd.after_join() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $f$
      BEGIN
        INSERT INTO memd.access_generations (member, generation) VALUES (NEW.member, 1)
          ON CONFLICT (member) DO UPDATE SET generation = memd.access_generations.generation + 1;
        PERFORM pg_notify('memd_changes', '');
        RETURN NEW;
      END $f$;
      CREATE TRIGGER team_members_join AFTER INSERT ON memd.team_members FOR EACH ROW EXECUTE FUNCTION memd.after_join();
      -- A team's creator is its first member.
      CREATE FUNCTION memd.after_team() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $f$
      BEGIN
        INSERT INTO memd.team_members (team, member) VALUES (NEW.name, NEW.owner);
        RETURN NEW;
      END $f$;
      CREATE TRIGGER teams_first_member AFTER INSERT ON memd.teams FOR EACH ROW EXECUTE FUNCTION memd.after_team();

      ALTER TABLE memd.memories ENABLE ROW LEVEL SECURITY;
      ALTER TABLE memd.events ENABLE ROW LEVEL SECURITY;
      ALTER TABLE memd.teams ENABLE ROW LEVEL SECURITY;
      ALTER TABLE memd.team_members ENABLE ROW LEVEL SECURITY;
      ALTER TABLE memd.shares ENABLE ROW LEVEL SECURITY;
      ALTER TABLE memd.access_generations ENABLE ROW LEVEL SECURITY;

      -- Visibility (VISIBLE above) decides reading and writing alike.
      CREATE POLICY memories_visible ON memd.memories FOR SELECT TO memd_user USING (${VISIBLE});
      CREATE POLICY memories_insert ON memd.memories FOR INSERT TO memd_user WITH CHECK (owner = session_user);
      -- A team corrects its shared memories (archive, supersede, edit); the owner stays the owner
      -- (no UPDATE grant on the column) and the row must still be visible afterwards.
      CREATE POLICY memories_update ON memd.memories FOR UPDATE TO memd_user
        USING (${VISIBLE}) WITH CHECK (${VISIBLE});
      GRANT SELECT, INSERT ON memd.memories TO memd_user;
      GRANT UPDATE (project, status, record, machine, txid, seq, changed_at) ON memd.memories TO memd_user;

      -- An event is visible, and may be added, exactly where its memory is.
      CREATE POLICY events_visible ON memd.events FOR SELECT TO memd_user USING (EXISTS (SELECT 1 FROM memd.memories m WHERE m.id = events.memory_id));
      CREATE POLICY events_insert ON memd.events FOR INSERT TO memd_user WITH CHECK (EXISTS (SELECT 1 FROM memd.memories m WHERE m.id = events.memory_id));
      GRANT SELECT, INSERT ON memd.events TO memd_user;

      -- Team names are not secret (like an organisation's name); who is in one is its members'.
      CREATE POLICY teams_visible ON memd.teams FOR SELECT TO memd_user USING (true);
      CREATE POLICY teams_create ON memd.teams FOR INSERT TO memd_user WITH CHECK (owner = session_user);
      CREATE POLICY teams_delete ON memd.teams FOR DELETE TO memd_user USING (owner = session_user);
      GRANT SELECT, INSERT (name), DELETE ON memd.teams TO memd_user;
      CREATE POLICY members_visible ON memd.team_members FOR SELECT TO memd_user USING (team IN (SELECT memd.my_teams()));
      CREATE POLICY members_add ON memd.team_members FOR INSERT TO memd_user
        WITH CHECK (EXISTS (SELECT 1 FROM memd.teams t WHERE t.name = team_members.team AND t.owner = session_user));
      -- The team's owner removes anyone; a member may leave.
      CREATE POLICY members_remove ON memd.team_members FOR DELETE TO memd_user
        USING (member = session_user OR EXISTS (SELECT 1 FROM memd.teams t WHERE t.name = team_members.team AND t.owner = session_user));
      GRANT SELECT, INSERT, DELETE ON memd.team_members TO memd_user;
      CREATE POLICY shares_visible ON memd.shares FOR SELECT TO memd_user USING (owner = session_user OR team IN (SELECT memd.my_teams()));
      CREATE POLICY shares_add ON memd.shares FOR INSERT TO memd_user WITH CHECK (owner = session_user AND team IN (SELECT memd.my_teams()));
      CREATE POLICY shares_remove ON memd.shares FOR DELETE TO memd_user USING (owner = session_user);
      GRANT SELECT, INSERT (project, team), DELETE ON memd.shares TO memd_user;
      CREATE POLICY generations_own ON memd.access_generations FOR SELECT TO memd_user USING (member = session_user);
      GRANT SELECT ON memd.access_generations TO memd_user;
      GRANT EXECUTE ON FUNCTION memd.my_teams() TO memd_user;
    `,
  },
  {
    version: 2,
    name: "the hub's identity and epoch, keys and versions that belong to their writers, and teams joined by consent",
    sql: `
      -- Who the hub is, and how many times it lost rows: a daemon remembers both and, when either
      -- changes (a different database at the same URL, a TRUNCATE or DELETE by the hub's owner),
      -- pushes again everything of its person's that it had pushed. Users may not delete rows, so
      -- any deletion is the owner's, and the epoch counts it.
      ALTER TABLE memd.hub_meta ADD COLUMN hub_id uuid NOT NULL DEFAULT gen_random_uuid();
      ALTER TABLE memd.hub_meta ADD COLUMN epoch bigint NOT NULL DEFAULT 1;
      CREATE FUNCTION memd.after_rows_lost() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $f$
      BEGIN
        UPDATE memd.hub_meta SET epoch = epoch + 1 WHERE id = 1;
        PERFORM pg_notify('memd_changes', '');
        RETURN NULL;
      END $f$;
      CREATE FUNCTION memd.after_rows_deleted() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $f$
      BEGIN
        IF EXISTS (SELECT 1 FROM gone) THEN
          UPDATE memd.hub_meta SET epoch = epoch + 1 WHERE id = 1;
          PERFORM pg_notify('memd_changes', '');
        END IF;
        RETURN NULL;
      END $f$;
      CREATE TRIGGER memories_truncated AFTER TRUNCATE ON memd.memories FOR EACH STATEMENT EXECUTE FUNCTION memd.after_rows_lost();
      CREATE TRIGGER events_truncated AFTER TRUNCATE ON memd.events FOR EACH STATEMENT EXECUTE FUNCTION memd.after_rows_lost();
      CREATE TRIGGER memories_deleted AFTER DELETE ON memd.memories REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION memd.after_rows_deleted();
      CREATE TRIGGER events_deleted AFTER DELETE ON memd.events REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION memd.after_rows_deleted();

      -- Who wrote each version, set by the hub and never by the pusher: a daemon marks a memory
      -- another person wrote (or last changed) as theirs wherever an agent sees it.
      ALTER TABLE memd.memories ADD COLUMN written_by name;
      UPDATE memd.memories SET written_by = owner;
      ALTER TABLE memd.memories ALTER COLUMN written_by SET NOT NULL;
      CREATE FUNCTION memd.before_write() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog AS $f$
      BEGIN
        IF TG_OP = 'INSERT' OR NEW.record IS DISTINCT FROM OLD.record THEN
          NEW.written_by := session_user;
        ELSE
          NEW.written_by := OLD.written_by;
        END IF;
        RETURN NEW;
      END $f$;
      CREATE TRIGGER memories_written_by BEFORE INSERT OR UPDATE ON memd.memories FOR EACH ROW EXECUTE FUNCTION memd.before_write();

      -- An event's key belongs to its writer: keys are unique per owner, and one may only add
      -- events as oneself, so nobody can take a key another person's daemon will use. Events
      -- from before this version are credited to their memory's owner.
      ALTER TABLE memd.events ADD COLUMN owner name;
      UPDATE memd.events e SET owner = m.owner FROM memd.memories m WHERE m.id = e.memory_id;
      ALTER TABLE memd.events ALTER COLUMN owner SET NOT NULL;
      ALTER TABLE memd.events ALTER COLUMN owner SET DEFAULT session_user;
      ALTER TABLE memd.events DROP CONSTRAINT events_pkey;
      ALTER TABLE memd.events ADD PRIMARY KEY (owner, key);
      DROP POLICY events_insert ON memd.events;
      CREATE POLICY events_insert ON memd.events FOR INSERT TO memd_user
        WITH CHECK (owner = session_user AND EXISTS (SELECT 1 FROM memd.memories m WHERE m.id = events.memory_id));

      -- Joining a team takes the member's consent: its owner invites, and only the invitee may
      -- add themselves, with an invitation, which joining uses up. Members added without one
      -- before this version are invited again: they are members once they accept.
      CREATE TABLE memd.team_invitations (
        team       text NOT NULL REFERENCES memd.teams (name) ON DELETE CASCADE,
        invitee    name NOT NULL,
        invited_by name NOT NULL DEFAULT session_user,
        invited_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team, invitee)
      );
      CREATE INDEX team_invitations_invitee ON memd.team_invitations (invitee);
      INSERT INTO memd.team_invitations (team, invitee, invited_by)
        SELECT m.team, m.member, t.owner FROM memd.team_members m JOIN memd.teams t ON t.name = m.team WHERE m.member <> t.owner;
      DELETE FROM memd.team_members m USING memd.teams t WHERE t.name = m.team AND m.member <> t.owner;
      CREATE FUNCTION memd.my_invitations() RETURNS SETOF text LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS
        $f$ SELECT team FROM memd.team_invitations WHERE invitee = session_user $f$;
      CREATE FUNCTION memd.my_owned_teams() RETURNS SETOF text LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS
        $f$ SELECT name FROM memd.teams WHERE owner = session_user $f$;
      CREATE OR REPLACE FUNCTION memd.after_join() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $f$
      BEGIN
        DELETE FROM memd.team_invitations WHERE team = NEW.team AND invitee = NEW.member;
        INSERT INTO memd.access_generations (member, generation) VALUES (NEW.member, 1)
          ON CONFLICT (member) DO UPDATE SET generation = memd.access_generations.generation + 1;
        PERFORM pg_notify('memd_changes', '');
        RETURN NEW;
      END $f$;
      ALTER TABLE memd.team_invitations ENABLE ROW LEVEL SECURITY;
      CREATE POLICY invitations_visible ON memd.team_invitations FOR SELECT TO memd_user
        USING (invitee = session_user OR team IN (SELECT memd.my_teams()) OR team IN (SELECT memd.my_owned_teams()));
      CREATE POLICY invitations_add ON memd.team_invitations FOR INSERT TO memd_user
        WITH CHECK (invited_by = session_user AND team IN (SELECT memd.my_owned_teams()));
      -- The invitee declines; the team's owner withdraws.
      CREATE POLICY invitations_remove ON memd.team_invitations FOR DELETE TO memd_user
        USING (invitee = session_user OR team IN (SELECT memd.my_owned_teams()));
      GRANT SELECT, INSERT (team, invitee), DELETE ON memd.team_invitations TO memd_user;
      DROP POLICY members_add ON memd.team_members;
      CREATE POLICY members_join ON memd.team_members FOR INSERT TO memd_user
        WITH CHECK (member = session_user AND team IN (SELECT memd.my_invitations()));
      DROP POLICY members_remove ON memd.team_members;
      CREATE POLICY members_remove ON memd.team_members FOR DELETE TO memd_user
        USING (member = session_user OR team IN (SELECT memd.my_owned_teams()));

      -- A team, its owner and its name are seen by its owner, its members and those invited, by
      -- nobody else.
      DROP POLICY teams_visible ON memd.teams;
      CREATE POLICY teams_visible ON memd.teams FOR SELECT TO memd_user
        USING (owner = session_user OR name IN (SELECT memd.my_teams()) OR name IN (SELECT memd.my_invitations()));
      GRANT EXECUTE ON FUNCTION memd.my_invitations(), memd.my_owned_teams() TO memd_user;

      -- PostgreSQL shows every role the row counts of every table (statistics views and
      -- functions, pg_class.reltuples, relation sizes): how many memories, events, teams and
      -- members all users have together. Only a superuser may take that from PUBLIC, so a hub
      -- made by one (self-hosted) hides them in its database; on a managed one (RDS, Neon,
      -- Supabase) they stay readable, and memctl hub init says so. The planner's estimates
      -- (EXPLAIN) still show their order of magnitude.
      DO $hide$
      DECLARE f regprocedure;
      BEGIN
        IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN RETURN; END IF;
        REVOKE SELECT ON pg_catalog.pg_stat_all_tables, pg_catalog.pg_stat_user_tables, pg_catalog.pg_stat_sys_tables,
          pg_catalog.pg_stat_xact_all_tables, pg_catalog.pg_stat_xact_user_tables, pg_catalog.pg_stat_xact_sys_tables,
          pg_catalog.pg_statio_all_tables, pg_catalog.pg_statio_user_tables, pg_catalog.pg_statio_sys_tables,
          pg_catalog.pg_stat_all_indexes, pg_catalog.pg_stat_user_indexes, pg_catalog.pg_stat_sys_indexes,
          pg_catalog.pg_statio_all_indexes, pg_catalog.pg_statio_user_indexes, pg_catalog.pg_statio_sys_indexes,
          pg_catalog.pg_statio_all_sequences, pg_catalog.pg_statio_user_sequences, pg_catalog.pg_statio_sys_sequences
          FROM PUBLIC;
        FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
            WHERE p.pronamespace = 'pg_catalog'::regnamespace
              AND ((p.proname LIKE 'pg\\_stat\\_get\\_%' AND p.pronargs = 1 AND p.proargtypes[0] = 'oid'::regtype)
                OR p.proname IN ('pg_relation_size', 'pg_table_size', 'pg_total_relation_size', 'pg_indexes_size'))
        LOOP
          EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
        END LOOP;
        REVOKE SELECT ON pg_catalog.pg_class FROM PUBLIC;
        EXECUTE (SELECT 'GRANT SELECT (' || string_agg(quote_ident(attname), ', ') || ') ON pg_catalog.pg_class TO PUBLIC'
          FROM pg_catalog.pg_attribute WHERE attrelid = 'pg_catalog.pg_class'::regclass AND attnum > 0 AND NOT attisdropped
            AND attname NOT IN ('reltuples', 'relpages', 'relallvisible'));
      END $hide$;
    `,
  },
];

/** The newest hub schema this memd knows. */
export const HUB_SCHEMA_VERSION = HUB_MIGRATIONS.at(-1)?.version ?? 0;
