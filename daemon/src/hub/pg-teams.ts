import type pg from "pg";
import { ConflictError, FailedPreconditionError, NotFoundError } from "../errors.js";
import { hubError } from "./hub-errors.js";
import type { TeamAdmin, TeamInfo, TeamInvitation } from "./hub-port.js";

/**
 * Teams, invitations and shares on the hub, as the connected person may manage them: every
 * statement runs as their role, and row-level security decides (hub-schema.ts); the checks here
 * only turn a refusal into a message a person can act on.
 */
export class PgTeams implements TeamAdmin {
  constructor(private readonly pool: pg.Pool) {}

  async create(team: string): Promise<void> {
    await this.run("INSERT INTO memd.teams (name) VALUES ($1)", [team], { unique: `there is already a team named ${team} on the hub` });
  }

  async invite(team: string, member: string): Promise<boolean> {
    const role = await this.run("SELECT 1 FROM pg_roles WHERE rolname = $1", [member]);
    if (role.rowCount === 0) throw new NotFoundError(`the hub has no user ${member}: its owner makes one (CREATE ROLE ${member} LOGIN PASSWORD '…' IN ROLE memd_user)`);
    await this.mustBeOwner(team, "invite people");
    const already = await this.run("SELECT 1 FROM memd.team_members WHERE team = $1 AND member = $2", [team, member]);
    if ((already.rowCount ?? 0) > 0) return false;
    await this.run("INSERT INTO memd.team_invitations (team, invitee) VALUES ($1, $2) ON CONFLICT DO NOTHING", [team, member]);
    return true;
  }

  async join(team: string): Promise<void> {
    const invited = await this.run("SELECT 1 FROM memd.team_invitations WHERE team = $1 AND invitee = session_user", [team]);
    if (invited.rowCount === 0) {
      const member = await this.run("SELECT $1 IN (SELECT memd.my_teams()) AS member", [team]);
      if (member.rows[0].member) return;
      throw new NotFoundError(`you have no invitation to a team named ${team}: its owner invites you first (memctl team add ${team} <you>)`);
    }
    await this.run("INSERT INTO memd.team_members (team, member) VALUES ($1, session_user) ON CONFLICT DO NOTHING", [team]);
  }

  async decline(team: string): Promise<boolean> {
    const removed = await this.run("DELETE FROM memd.team_invitations WHERE team = $1 AND invitee = session_user RETURNING team", [team]);
    return (removed.rowCount ?? 0) > 0;
  }

  async invitations(): Promise<TeamInvitation[]> {
    const rows = await this.run(
      "SELECT team, invited_by::text AS invited_by, (extract(epoch FROM invited_at) * 1000)::float8 AS at FROM memd.team_invitations WHERE invitee = session_user ORDER BY invited_at, team",
      [],
    );
    return rows.rows.map((r) => ({ team: r.team, invitedBy: r.invited_by, at: r.at }));
  }

  async removeMember(team: string, member: string): Promise<boolean> {
    const removed = await this.run("DELETE FROM memd.team_members WHERE team = $1 AND member = $2 RETURNING member", [team, member]);
    if (removed.rowCount === 0) await this.mustExist(team);
    return (removed.rowCount ?? 0) > 0;
  }

  async share(project: string, team: string): Promise<boolean> {
    await this.mustExist(team);
    const teams = await this.run("SELECT $1 IN (SELECT memd.my_teams()) AS member", [team]);
    if (!teams.rows[0].member) throw new FailedPreconditionError(`you are not a member of team ${team}: its owner invites you (memctl team add ${team} <you>) and you join (memctl team join ${team})`);
    const added = await this.run("INSERT INTO memd.shares (project, team) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING team", [project, team]);
    return (added.rowCount ?? 0) > 0;
  }

  async unshare(project: string, team: string): Promise<boolean> {
    const removed = await this.run("DELETE FROM memd.shares WHERE owner = session_user AND project = $1 AND team = $2 RETURNING team", [project, team]);
    return (removed.rowCount ?? 0) > 0;
  }

  async list(): Promise<TeamInfo[]> {
    const teams = await this.run(
      `SELECT t.name, t.owner,
         coalesce((SELECT array_agg(m.member::text ORDER BY m.member) FROM memd.team_members m WHERE m.team = t.name), '{}') AS members,
         coalesce((SELECT array_agg(i.invitee::text ORDER BY i.invitee) FROM memd.team_invitations i WHERE i.team = t.name), '{}') AS invited
       FROM memd.teams t WHERE t.name IN (SELECT memd.my_teams()) OR t.owner = session_user ORDER BY t.name`,
      [],
    );
    const shares = await this.run("SELECT team, owner::text AS owner, project FROM memd.shares ORDER BY team, owner, project", []);
    return teams.rows.map((t) => ({
      name: t.name,
      owner: t.owner,
      members: t.members,
      invited: t.invited,
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
