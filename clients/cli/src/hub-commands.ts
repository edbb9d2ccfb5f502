import { toJson } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import { GetHubStatusResponseSchema, ListTeamInvitationsResponseSchema, ListTeamsResponseSchema } from "../../../gen/memd/v1/hub_service_pb.js";
import { action } from "./context.js";

/** The hub (memory across machines, and teams) and the teams on it; the daemon does the work. */
export function registerHubCommands(program: Command): void {
  const hub = program.command("hub").description("sync memories across your machines through a PostgreSQL hub, and share projects with teams");

  hub
    .command("init <owner-url>")
    .description("make or upgrade the hub's schema, as the database's owner (the URL is used once, not kept)")
    .action(
      action(async (ctx, ownerUrl: string) => {
        const res = await ctx.clients.hub.initHub({ ownerUrl });
        if (ctx.json) return ctx.printJson({ fromVersion: res.fromVersion, toVersion: res.toVersion, statisticsHidden: res.statisticsHidden });
        ctx.print(res.fromVersion === res.toVersion ? `the hub's schema is current (version ${res.toVersion})` : `the hub's schema went from version ${res.fromVersion} to ${res.toVersion}`);
        if (!res.statisticsHidden) {
          ctx.print("note: every hub user can read PostgreSQL's per-table statistics (how many memories, events and teams all users have together); only a superuser running memctl hub init can hide them");
        }
        ctx.print("each person needs a role in it: CREATE ROLE name LOGIN PASSWORD '…' IN ROLE memd_user;");
      }),
    );

  hub
    .command("connect <url>")
    .description("sync with the hub at postgres://user:password@host:port/database, as that user")
    .action(
      action(async (ctx, url: string) => {
        const res = await ctx.clients.hub.connectHub({ url });
        if (ctx.json) return ctx.printJson({ user: res.user, queued: Number(res.queued) });
        ctx.print(`syncing with the hub as ${res.user}; ${res.queued} local memories queued for it`);
      }),
    );

  hub
    .command("disconnect")
    .description("stop syncing and forget the hub's URL (local memories stay)")
    .action(
      action(async (ctx) => {
        const res = await ctx.clients.hub.disconnectHub({});
        if (ctx.json) return ctx.printJson({ wasConnected: res.wasConnected });
        ctx.print(res.wasConnected ? "disconnected from the hub; every memory stays on this machine" : "no hub was connected");
      }),
    );

  hub
    .command("status")
    .description("whether a hub is connected, what waits to be pushed, conflicts and refusals")
    .action(
      action(async (ctx) => {
        const res = await ctx.clients.hub.getHubStatus({});
        if (ctx.json) return ctx.printJson(toJson(GetHubStatusResponseSchema, res));
        if (!res.enabled) return ctx.print(`no hub is connected (this machine is ${res.machineId}); memctl hub connect postgres://… starts syncing`);
        ctx.print(`hub: ${res.url} as ${res.user} (${res.connected ? "connected" : "not connected"}), this machine ${res.machineId}`);
        ctx.print(`  last sync: ${res.lastSyncTime ? timestampDate(res.lastSyncTime).toISOString() : "none since memd started"}`);
        ctx.print(`  waiting to push: ${res.pendingMemories} memories, ${res.pendingEvents} events; pushed ${res.pushed}, pulled ${res.pulled} since memd started`);
        ctx.print(`  conflicts: ${res.conflicts} (both versions are in each memory's history); refused by the hub: ${res.refused} memories, ${res.refusedEvents} events; not stored: ${res.rejected}`);
        if (res.lastError) ctx.print(`  last error (retried): ${res.lastError}`);
        if (res.notice) ctx.print(`  noticed${res.noticeTime ? ` at ${timestampDate(res.noticeTime).toISOString()}` : ""}: ${res.notice}`);
      }),
    );

  const team = program.command("team").description("teams on the hub, and the projects you share with them");

  team
    .command("create <team>")
    .description("make a team; you are its owner and first member")
    .action(action(async (ctx, name: string) => {
      await ctx.clients.hub.createTeam({ team: name });
      ctx.print(`team ${name} made; add people with memctl team add ${name} USER`);
    }));

  team
    .command("add <team> <user>")
    .description("invite a hub user into a team you own; they are a member once they accept (memctl team join)")
    .action(action(async (ctx, name: string, member: string) => {
      const res = await ctx.clients.hub.addTeamMember({ team: name, member });
      ctx.print(res.invited ? `${member} is invited to team ${name}; they join with memctl team join ${name}` : `${member} is in team ${name} already`);
    }));

  team
    .command("invitations")
    .description("the teams you are invited to, and who invited you")
    .action(action(async (ctx) => {
      const res = await ctx.clients.hub.listTeamInvitations({});
      if (ctx.json) return ctx.printJson(toJson(ListTeamInvitationsResponseSchema, res));
      if (res.invitations.length === 0) return ctx.print("no invitations are waiting for you");
      for (const i of res.invitations) ctx.print(`${i.team} (invited by ${i.invitedBy}): memctl team join ${i.team}, or memctl team decline ${i.team}`);
    }));

  team
    .command("join <team>")
    .description("accept your invitation into a team: you receive the memories its members share with it")
    .action(action(async (ctx, name: string) => {
      await ctx.clients.hub.joinTeam({ team: name });
      ctx.print(`you are in team ${name}; memories its members share reach you marked with their names`);
    }));

  team
    .command("decline <team>")
    .description("turn down your invitation into a team")
    .action(action(async (ctx, name: string) => {
      const res = await ctx.clients.hub.declineTeamInvitation({ team: name });
      ctx.print(res.declined ? `you declined the invitation to team ${name}` : `you had no invitation to team ${name}`);
    }));

  team
    .command("remove <team> <user>")
    .description("take a member out of a team (or leave it yourself)")
    .action(action(async (ctx, name: string, member: string) => {
      const res = await ctx.clients.hub.removeTeamMember({ team: name, member });
      ctx.print(res.removed ? `${member} left team ${name}: they receive none of its memories from now on; what they already received stays on their machines` : `${member} was not in team ${name}`);
    }));

  team
    .command("share <project> <team>")
    .description("share your memories of a project with a team (staged guesses stay yours)")
    .action(action(async (ctx, project: string, name: string) => {
      const res = await ctx.clients.hub.shareProject({ project, team: name });
      ctx.print(res.shared ? `your memories of ${project} are shared with ${name}` : `${project} was already shared with ${name}`);
    }));

  team
    .command("unshare <project> <team>")
    .description("stop sharing a project with a team")
    .action(action(async (ctx, project: string, name: string) => {
      const res = await ctx.clients.hub.unshareProject({ project, team: name });
      ctx.print(res.unshared ? `${project} is no longer shared with ${name}; what its members already received stays on their machines` : `${project} was not shared with ${name}`);
    }));

  team
    .command("list")
    .description("the teams you own or are in, their members, invitations and shared projects")
    .action(action(async (ctx) => {
      const res = await ctx.clients.hub.listTeams({});
      if (ctx.json) return ctx.printJson(toJson(ListTeamsResponseSchema, res));
      if (res.teams.length === 0) return ctx.print("you are in no team");
      for (const t of res.teams) {
        ctx.print(`${t.name} (owner ${t.owner}): ${t.members.join(", ")}${t.invited.length > 0 ? `; invited: ${t.invited.join(", ")}` : ""}`);
        for (const s of t.shares) ctx.print(`  shares ${s.owner}/${s.project}`);
      }
    }));
}
