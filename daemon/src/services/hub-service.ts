import type { ServiceImpl } from "@connectrpc/connect";
import { HubService } from "../../../gen/memd/v1/hub_service_pb.js";
import { ConfigError, hubUrl } from "../config/config.js";
import { InvalidInputError } from "../errors.js";
import type { HubController } from "../hub/hub-controller.js";
import { validateProjectName } from "../memory/validate.js";
import { timeToPb } from "./convert.js";

const TEAM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** PostgreSQL role names: up to 63 bytes; memd asks for plain ones, which need no quoting anywhere. */
const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,62}$/;

/** HubService: the hub to sync with, its status, and teams and shares on it. */
export function createHubService(hub: HubController): ServiceImpl<typeof HubService> {
  return {
    async initHub(req) {
      const { from, to, statisticsHidden } = await hub.init(checkedUrl(req.ownerUrl, "owner_url"));
      return { fromVersion: from, toVersion: to, statisticsHidden };
    },

    async connectHub(req) {
      const { user, queued } = await hub.connectTo(checkedUrl(req.url, "url"));
      return { user, queued: BigInt(queued) };
    },

    async disconnectHub() {
      return { wasConnected: await hub.disconnect() };
    },

    getHubStatus() {
      const status = hub.status();
      if (!status.enabled) return { enabled: false, machineId: status.machineId };
      return {
        ...status,
        lastSyncTime: status.lastSyncAt === null ? undefined : timeToPb(status.lastSyncAt),
        pendingMemories: BigInt(status.pendingMemories),
        pendingEvents: BigInt(status.pendingEvents),
        pushed: BigInt(status.pushed),
        pulled: BigInt(status.pulled),
        conflicts: BigInt(status.conflicts),
        refused: BigInt(status.refused),
        refusedEvents: BigInt(status.refusedEvents),
        rejected: BigInt(status.rejected),
        notice: status.notice?.text ?? "",
        noticeTime: status.notice ? timeToPb(status.notice.at) : undefined,
      };
    },

    async createTeam(req) {
      const team = teamName(req.team);
      await hub.teams((teams) => teams.create(team));
      return {};
    },

    async addTeamMember(req) {
      const [team, member] = [teamName(req.team), roleName(req.member)];
      return { invited: await hub.teams((teams) => teams.invite(team, member)) };
    },

    async listTeamInvitations() {
      const invitations = await hub.teams((teams) => teams.invitations());
      return { invitations: invitations.map((i) => ({ team: i.team, invitedBy: i.invitedBy, inviteTime: timeToPb(i.at) })) };
    },

    async joinTeam(req) {
      const team = teamName(req.team);
      await hub.teams((teams) => teams.join(team));
      return {};
    },

    async declineTeamInvitation(req) {
      const team = teamName(req.team);
      return { declined: await hub.teams((teams) => teams.decline(team)) };
    },

    async removeTeamMember(req) {
      const [team, member] = [teamName(req.team), roleName(req.member)];
      return { removed: await hub.teams((teams) => teams.removeMember(team, member)) };
    },

    async shareProject(req) {
      const [project, team] = [validateProjectName(req.project), teamName(req.team)];
      return { shared: await hub.teams((teams) => teams.share(project, team)) };
    },

    async unshareProject(req) {
      const [project, team] = [validateProjectName(req.project), teamName(req.team)];
      return { unshared: await hub.teams((teams) => teams.unshare(project, team)) };
    },

    async listTeams() {
      return { teams: await hub.teams((teams) => teams.list()) };
    },
  };
}

function checkedUrl(value: string, field: string): string {
  try {
    return hubUrl(value.trim(), field);
  } catch (error) {
    if (error instanceof ConfigError) throw new InvalidInputError(error.message, { cause: error });
    throw error;
  }
}

function teamName(value: string): string {
  if (!TEAM_NAME.test(value)) throw new InvalidInputError(`team "${value.slice(0, 80)}" is not a team name: use letters, digits, dot, dash and underscore, up to 64, starting with a letter or digit`);
  return value;
}

function roleName(value: string): string {
  if (!ROLE_NAME.test(value)) throw new InvalidInputError(`member "${value.slice(0, 80)}" is not a hub user name: give the PostgreSQL role's name (letters, digits, underscore, dot, dash; up to 63)`);
  return value;
}
