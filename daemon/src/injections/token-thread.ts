import { Worker } from "node:worker_threads";
import { workerModuleUrl } from "../worker-url.js";
import type { TokenCountReply, TokenCountRequest } from "./token-protocol.js";

interface Waiting {
  resolve(counts: number[]): void;
  reject(error: Error): void;
}

/**
 * Counts tokens in a worker thread, started on the first count: loading the tokenizer there keeps
 * the daemon's event loop free, and a daemon that never injects never loads it. A thread that
 * stops fails the counts it had; the next count starts a new one.
 */
export class TokenThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();

  constructor(private readonly url: URL = workerModuleUrl("token-worker", import.meta.url)) {}

  count(texts: string[]): Promise<number[]> {
    const id = ++this.nextId;
    const counted = new Promise<number[]>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    const request: TokenCountRequest = { id, texts };
    this.started().postMessage(request);
    return counted;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.url);
    // The daemon's own timers and sockets decide when it exits, not this thread.
    worker.unref();
    let crash: Error | undefined;
    worker.on("message", (reply: TokenCountReply) => {
      this.waiting.get(reply.id)?.resolve(reply.counts);
      this.waiting.delete(reply.id);
    });
    worker.on("error", (error) => {
      crash = error;
    });
    worker.on("exit", (code) => {
      if (this.worker === worker) this.worker = null;
      const error = new Error(`the token-counting thread stopped (${crash?.message ?? `exit code ${code}`})`, { cause: crash });
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    });
    this.worker = worker;
    return worker;
  }
}
