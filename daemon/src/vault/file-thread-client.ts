import { Worker } from "node:worker_threads";
import type { VaultFileRecord } from "../store/vault-store.js";
import { workerModuleUrl } from "../worker-url.js";
import type { FileThreadReply, FileThreadRequest, FileThreadSettings } from "./file-thread-protocol.js";
import type { WriteOutcome, WriteTask } from "./file-writing.js";

interface Pending {
  resolve(reply: FileThreadReply): void;
  reject(error: Error): void;
}

/**
 * The writer's handle on its file thread, started on first use. A thread that stops (a crash)
 * fails the batch it had, whose jobs stay queued, and the next batch starts a new one.
 */
export class FileThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private crash: Error | undefined;

  constructor(
    private readonly settings: FileThreadSettings,
    private readonly url: URL = workerModuleUrl("file-thread", import.meta.url),
  ) {}

  async write(tasks: WriteTask[]): Promise<WriteOutcome[]> {
    const reply = await this.ask((id) => ({ type: "write", id, tasks }));
    return reply.type === "written" ? reply.outcomes : [];
  }

  /** Removes memd's temporary files last written before `before` (ms), left by writes a crash cut off; returns their paths. */
  async clean(before: number): Promise<string[]> {
    const reply = await this.ask((id) => ({ type: "clean", id, before }));
    return reply.type === "cleaned" ? reply.removed : [];
  }

  /** Removed after what was sent before; nothing is answered. */
  remove(files: VaultFileRecord[]): void {
    if (files.length > 0) this.post({ type: "remove", files });
  }

  /** Stops the thread once it did what it was sent. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    // An empty batch is answered after every request sent before it.
    await this.write([]).catch(() => undefined);
    this.worker = null;
    await worker.terminate();
  }

  private ask(request: (id: number) => FileThreadRequest): Promise<FileThreadReply> {
    const id = ++this.nextId;
    const answered = new Promise<FileThreadReply>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.post(request(id));
    return answered;
  }

  private post(request: FileThreadRequest): void {
    this.started().postMessage(request);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.url, { workerData: this.settings });
    // The daemon's own timers and sockets decide when it exits, not this thread.
    worker.unref();
    worker.on("message", (reply: FileThreadReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiting?.resolve(reply);
    });
    worker.on("error", (error) => {
      this.crash = error;
    });
    worker.on("exit", (code) => {
      if (this.worker === worker) this.worker = null;
      const reason = this.crash ? this.crash.message : `exit code ${code}`;
      const error = new Error(`the vault's file thread stopped (${reason})`, { cause: this.crash });
      this.crash = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }
}
