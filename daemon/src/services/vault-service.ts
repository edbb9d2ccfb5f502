import type { ServiceImpl } from "@connectrpc/connect";
import { VaultService } from "../../../gen/memd/v1/vault_service_pb.js";
import { FailedPreconditionError } from "../errors.js";
import type { VaultStore } from "../store/vault-store.js";
import { rebuildFromVault } from "../vault/rebuild-from-vault.js";
import type { VaultWatcher } from "../vault/vault-watcher.js";
import type { VaultWriter } from "../vault/vault-writer.js";
import { timeToPb } from "./convert.js";
import type { ServiceDeps } from "./deps.js";

/** The running vault: its store side and its writer; null when the daemon keeps none. */
export interface VaultHandle {
  dir: string;
  store: VaultStore;
  writer: VaultWriter;
  watcher: VaultWatcher;
}

/** VaultService: the vault's status, and the database rebuilt from its files. */
export function createVaultService(deps: ServiceDeps, vault: VaultHandle | null): ServiceImpl<typeof VaultService> {
  return {
    getVaultStatus() {
      if (vault === null) return { enabled: false };
      const status = vault.writer.status();
      return {
        enabled: true,
        dir: status.dir,
        pending: BigInt(status.pending),
        files: BigInt(status.files),
        lastWriteTime: status.lastWriteAt === null ? undefined : timeToPb(status.lastWriteAt),
        lastError: status.lastError,
        held: status.held.map((h) => ({ path: h.path, line: 0, reason: h.reason })),
        unreadable: vault.watcher.unreadable(),
        links: vault.watcher.linksLeftAlone(),
        failing: status.failing.map((f) => ({ path: f.path, line: 0, reason: f.reason })),
      };
    },

    async rebuildFromVault() {
      if (vault === null) throw new FailedPreconditionError("memd keeps no vault (it runs with --no-vault or MEMD_VAULT=off): there are no files to rebuild from");
      const outcome = await rebuildFromVault(vault.dir, deps.store, vault.store, deps.limits);
      return {
        files: BigInt(outcome.files),
        created: BigInt(outcome.created),
        updated: BigInt(outcome.updated),
        unchanged: BigInt(outcome.unchanged),
        events: BigInt(outcome.events),
        problems: outcome.problems,
      };
    },
  };
}
