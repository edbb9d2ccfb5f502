import { Worker, type WorkerOptions } from "node:worker_threads";

interface Pending<Reply> {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

/**
 * Calls answered by a worker thread started on first use, each reply matched to its call by id.
 * A thread that stops fails the calls it had; the next call starts a new one.
 */
export class WorkerCalls<Message, Reply extends { id: number }> {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending<Reply>>();

  /** `name` says in errors which thread stopped ("the token-counting thread"). */
  constructor(
    private readonly url: URL,
    private readonly name: string,
    private readonly options: WorkerOptions = {},
  ) {}

  /** Whether a thread is running. */
  get started(): boolean {
    return this.worker !== null;
  }

  /** Sends the message made with a fresh id and resolves with the reply carrying that id. */
  call(message: (id: number) => Message): Promise<Reply> {
    const id = ++this.nextId;
    const answered = new Promise<Reply>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.post(message(id));
    return answered;
  }

  /** Sends a message nothing answers. */
  post(message: Message): void {
    this.running().postMessage(message);
  }

  /** Stops the thread; the calls it had fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.url, this.options);
    // The daemon's own timers and sockets decide when it exits, not this thread.
    worker.unref();
    let crash: Error | undefined;
    worker.on("message", (reply: Reply) => {
      this.pending.get(reply.id)?.resolve(reply);
      this.pending.delete(reply.id);
    });
    worker.on("error", (error) => {
      crash = error;
    });
    worker.on("exit", (code) => {
      if (this.worker === worker) this.worker = null;
      const error = new Error(`${this.name} stopped (${crash?.message ?? `exit code ${code}`})`, { cause: crash });
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }
}
