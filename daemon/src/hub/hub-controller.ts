import { FailedPreconditionError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { MemoryLimits } from "../memory/validate.js";
import type { HubStore } from "../store/hub-store.js";
import type { ChangeFeed } from "../store/store.js";
import type { HubPort, HubSchemaChange, TeamAdmin } from "./hub-port.js";
import { HubSync, type HubSyncStatus } from "./hub-sync.js";

export interface HubControllerOptions {
  store: HubStore;
  /** MEMD_HUB_URL: when set, it is the hub, and ConnectHub may not name another. */
  envUrl: string | undefined;
  connect: (url: string) => Promise<HubPort>;
  /** Makes or upgrades the schema of the hub at `ownerUrl` as its owner, recording `writtenBy`. */
  initSchema: (ownerUrl: string, writtenBy: string) => Promise<HubSchemaChange>;
  logger: Logger;
  now: () => number;
  limits: MemoryLimits;
  /** Wakes the sync worker when a commit queued changes for the hub. */
  changes: Pick<ChangeFeed, "onQueued">;
  /** memd's version, recorded on the hub by InitHub. */
  version: string;
}

/** Which hub the daemon syncs with, and the one sync worker for it: started at start-up, replaced on connect, stopped on disconnect. */
export class HubController {
  private sync: HubSync | null = null;

  constructor(private readonly options: HubControllerOptions) {}

  start(): void {
    const { envUrl, store } = this.options;
    if (envUrl) {
      const queued = store.configure(envUrl);
      if (queued > 0) this.options.logger.info({ queued }, "MEMD_HUB_URL names a new hub: every memory is queued for it");
    }
    const link = store.link();
    if (link) this.startSync(link.url);
  }

  async stop(): Promise<void> {
    const sync = this.sync;
    this.sync = null;
    await sync?.stop();
  }

  /** Checks the hub at `url` as its user, then syncs with it; returns the user and how many memories were queued. */
  async connectTo(url: string): Promise<{ user: string; queued: number }> {
    if (this.options.envUrl) throw new FailedPreconditionError("MEMD_HUB_URL is set for this daemon, and it names the hub: change it there (and restart memd)");
    const probe = await this.options.connect(url);
    const user = probe.user;
    await probe.close();
    await this.stop();
    const queued = this.options.store.configure(url);
    this.startSync(url);
    return { user, queued };
  }

  async disconnect(): Promise<boolean> {
    if (this.options.envUrl) throw new FailedPreconditionError("MEMD_HUB_URL is set for this daemon, and it names the hub: unset it (and restart memd)");
    const was = this.options.store.link() !== null;
    await this.stop();
    this.options.store.configure(null);
    return was;
  }

  status(): (HubSyncStatus & { enabled: true }) | { enabled: false; machineId: string } {
    if (!this.sync) return { enabled: false, machineId: this.options.store.machineId() };
    return { enabled: true, ...this.sync.status() };
  }

  /** Teams and shares on the connected hub; a share changes what is synced, so the worker syncs right after. */
  async teams<T>(act: (teams: TeamAdmin) => Promise<T>): Promise<T> {
    if (!this.sync) throw new FailedPreconditionError("no hub is connected: run memctl hub connect postgres://user:password@host/database first");
    const hub = await this.sync.connected();
    const result = await act(hub.teams);
    this.sync.wakeUp();
    return result;
  }

  /** Makes or upgrades the hub's schema as its owner; the owner's URL is not kept. */
  init(ownerUrl: string): Promise<HubSchemaChange> {
    return this.options.initSchema(ownerUrl, `memd ${this.options.version}`);
  }

  private startSync(url: string): void {
    const { store, connect, logger, now, limits, changes } = this.options;
    this.sync = new HubSync({ store, url, connect, logger, now, limits, changes });
    this.sync.start();
  }
}
