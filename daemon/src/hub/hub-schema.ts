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
];

/** The newest hub schema this memd knows. */
export const HUB_SCHEMA_VERSION = HUB_MIGRATIONS.at(-1)?.version ?? 0;
