import { toJson } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import { GetVaultStatusResponseSchema, RebuildFromVaultResponseSchema, type VaultFileProblem } from "../../../gen/memd/v1/vault_service_pb.js";
import { action } from "./context.js";

/** The vault: every memory as a Markdown file, and the database rebuilt from those files. */
export function registerVaultCommands(program: Command): void {
  const vault = program.command("vault").description("the vault: every memory as a Markdown file you can read, back up and keep in git");

  vault
    .command("status")
    .description("where the vault is, how many files wait to be written, files memd could not read or write, and files and links it left alone")
    .action(
      action(async (ctx) => {
        const res = await ctx.clients.vault.getVaultStatus({});
        if (ctx.json) return ctx.printJson(toJson(GetVaultStatusResponseSchema, res));
        if (!res.enabled) return ctx.print("the vault is off (memd runs with --no-vault or MEMD_VAULT=off)");
        ctx.print(`vault: ${res.dir}`);
        ctx.print(`  ${res.files} memories have a file; ${res.pending} wait to be written`);
        ctx.print(`  last write: ${res.lastWriteTime ? timestampDate(res.lastWriteTime).toISOString() : "none since memd started"}`);
        if (res.lastError) ctx.print(`  last error (retried): ${res.lastError}`);
        for (const unreadable of res.unreadable) ctx.print(`  not read: ${problemLine(unreadable)}`);
        for (const held of res.held) ctx.print(`  left alone: ${problemLine(held)}`);
        for (const link of res.links) ctx.print(`  link left alone: ${problemLine(link)}`);
        for (const failing of res.failing) ctx.print(`  not written: ${problemLine(failing)}`);
      }),
    );

  vault
    .command("rebuild")
    .description("store every memory the vault's files hold, with its history, as the files hold it (after losing the database)")
    .action(
      action(async (ctx) => {
        const res = await ctx.clients.vault.rebuildFromVault({});
        if (ctx.json) return ctx.printJson(toJson(RebuildFromVaultResponseSchema, res));
        ctx.print(`read ${res.files} files: ${res.created} memories restored, ${res.updated} replaced, ${res.unchanged} already as their file; ${res.events} history events restored`);
        for (const problem of res.problems) ctx.print(`  not read: ${problemLine(problem)}`);
      }),
    );
}

function problemLine(problem: VaultFileProblem): string {
  return `${problem.path}${problem.line > 0 ? `:${problem.line}` : ""}: ${problem.reason}`;
}
