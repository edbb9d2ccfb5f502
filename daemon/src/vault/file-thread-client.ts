import type { VaultFileRecord } from "../store/vault-store.js";
import { WorkerCalls } from "../worker-calls.js";
import { workerModuleUrl } from "../worker-url.js";
import type { FileThreadReply, FileThreadRequest, FileThreadSettings } from "./file-thread-protocol.js";
import type { WriteOutcome, WriteTask } from "./file-writing.js";

/**
 * The writer's handle on its file thread, started on first use. A thread that stops (a crash)
 * fails the batch it had, whose jobs stay queued, and the next batch starts a new one.
 */
export class FileThread {
  private readonly calls: WorkerCalls<FileThreadRequest, FileThreadReply>;

  constructor(settings: FileThreadSettings, url: URL = workerModuleUrl("file-thread", import.meta.url)) {
    this.calls = new WorkerCalls(url, "the vault's file thread", { workerData: settings });
  }

  async write(tasks: WriteTask[]): Promise<WriteOutcome[]> {
    const reply = await this.calls.call((id) => ({ type: "write", id, tasks }));
    return reply.type === "written" ? reply.outcomes : [];
  }

  /** Removes memd's temporary files last written before `before` (ms), left by writes a crash cut off; returns their paths. */
  async clean(before: number): Promise<string[]> {
    const reply = await this.calls.call((id) => ({ type: "clean", id, before }));
    return reply.type === "cleaned" ? reply.removed : [];
  }

  /** Removed after what was sent before; nothing is answered. */
  remove(files: VaultFileRecord[]): void {
    if (files.length > 0) this.calls.post({ type: "remove", files });
  }

  /** Stops the thread once it did what it was sent. */
  async close(): Promise<void> {
    if (!this.calls.started) return;
    // An empty batch is answered after every request sent before it.
    await this.write([]).catch(() => undefined);
    await this.calls.close();
  }
}
