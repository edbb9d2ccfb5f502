import { setTimeout as sleep } from "node:timers/promises";
import type { Interceptor } from "@connectrpc/connect";
import { parseTimeout as parseConnectTimeout } from "@connectrpc/connect/protocol-connect";
import { parseTimeout as parseGrpcTimeout } from "@connectrpc/connect/protocol-grpc";
import { isDatabaseLocked } from "../store/database-locked.js";

/** How long a call without a deadline waits for another process's write lock. */
const DEFAULT_WAIT_MS = 5000;
const FIRST_DELAY_MS = 5;
const MAX_DELAY_MS = 100;
/** The share of a call's deadline spent waiting, so that the refusal still reaches the caller in time. */
const DEADLINE_SHARE = 0.9;

/**
 * Retries a unary call whose write found the database locked by another process, between
 * turns of the event loop, until the lock is gone or the call's wait is over; then the call
 * fails as unavailable (services/connect-errors.ts). SQLite's own busy wait would block the
 * whole daemon, Health and reads included, for the same time.
 *
 * Retrying the whole call is safe because a locked write does nothing: its transaction is
 * rolled back, and each RPC makes its change in one transaction. What a call does before
 * that transaction (registering its project, pruning idle sessions) is idempotent.
 * Streamed calls are not retried: they fail at once.
 */
export function lockRetryInterceptor(defaultWaitMs = DEFAULT_WAIT_MS): Interceptor {
  return (next) => async (req) => {
    if (req.stream) return next(req);
    const waitUntil = performance.now() + waitBudgetMs(req.header, defaultWaitMs);
    for (let delay = FIRST_DELAY_MS; ; delay = Math.min(2 * delay, MAX_DELAY_MS)) {
      try {
        return await next(req);
      } catch (error) {
        const left = waitUntil - performance.now();
        if (!isDatabaseLocked(error) || left <= 0 || req.signal.aborted) throw error;
        await sleep(Math.min(delay, left));
      }
    }
  };
}

/** The wait a call allows: a share of its own deadline (Connect or gRPC header), at most the default. */
function waitBudgetMs(header: Headers, defaultWaitMs: number): number {
  const connect = parseConnectTimeout(header.get("connect-timeout-ms"), Number.MAX_SAFE_INTEGER).timeoutMs;
  const grpc = parseGrpcTimeout(header.get("grpc-timeout"), Number.MAX_SAFE_INTEGER).timeoutMs;
  const deadline = connect ?? grpc;
  return deadline === undefined ? defaultWaitMs : Math.min(defaultWaitMs, DEADLINE_SHARE * deadline);
}
