import { workerModuleUrl } from "../worker-url.js";
import { WorkerCalls } from "../worker-calls.js";
import type { TokenCountReply, TokenCountRequest } from "./token-protocol.js";

/**
 * Counts tokens in a worker thread, started on the first count: loading the tokenizer there keeps
 * the daemon's event loop free, and a daemon that never injects never loads it. A thread that
 * stops fails the counts it had; the next count starts a new one.
 */
export class TokenThread {
  private readonly calls: WorkerCalls<TokenCountRequest, TokenCountReply>;

  constructor(url: URL = workerModuleUrl("token-worker", import.meta.url)) {
    this.calls = new WorkerCalls(url, "the token-counting thread");
  }

  async count(texts: string[]): Promise<number[]> {
    return (await this.calls.call((id) => ({ id, texts }))).counts;
  }

  close(): Promise<void> {
    return this.calls.close();
  }
}
