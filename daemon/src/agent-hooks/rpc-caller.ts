import type { JsonValue } from "@bufbuild/protobuf";
import { ConnectError, createContextValues } from "@connectrpc/connect";
import { readAllBytes, type UniversalHandler } from "@connectrpc/connect/protocol";
import { codeFromHttpStatus, errorFromJsonBytes } from "@connectrpc/connect/protocol-connect";

/** The share of the remaining budget a call is given: the rest is for the answer's way back. */
const DEADLINE_SHARE = 0.8;
const ANSWER_MAX_BYTES = 16 * 1024 * 1024;

/** Unary RPCs by name, with proto-JSON bodies: what an agent's hook asks of memd. */
export interface RpcCaller {
  /** Calls one unary RPC (of memd.v1.MemoryService unless `service` names another). */
  call<T>(method: string, body: Record<string, unknown>, service?: string): Promise<T>;
}

/**
 * Calls the daemon's own RPC handlers in this process, through the same interceptors as a
 * request from outside (request log, field bounds, the write-lock retry), so that an agent's
 * hook route does what the RPC does and nothing else. `remainingMs` becomes each call's
 * deadline, so that Suggest answers in time without vectors from a slow embedder. A refusal
 * is thrown as the ConnectError it was, its message prefixed with the method.
 */
export function inProcessCaller(handlers: ReadonlyMap<string, UniversalHandler>, signal: AbortSignal, remainingMs: () => number): RpcCaller {
  return {
    async call<T>(method: string, body: Record<string, unknown>, service = "memd.v1.MemoryService"): Promise<T> {
      const path = `/${service}/${method}`;
      const handler = handlers.get(path);
      if (!handler) throw new Error(`no RPC ${path}`);
      const response = await handler({
        httpVersion: "1.1",
        method: "POST",
        url: `http://localhost${path}`,
        header: new Headers({
          "content-type": "application/json",
          "connect-protocol-version": "1",
          "connect-timeout-ms": String(Math.max(1, Math.floor(remainingMs() * DEADLINE_SHARE))),
        }),
        body: body as JsonValue,
        signal,
        contextValues: createContextValues(),
      });
      const bytes = response.body ? await readAllBytes(response.body, ANSWER_MAX_BYTES) : new Uint8Array(0);
      if (response.status !== 200) {
        const error = errorFromJsonBytes(bytes, undefined, new ConnectError(`HTTP ${response.status}`, codeFromHttpStatus(response.status)));
        throw new ConnectError(`${method}: ${error.rawMessage}`, error.code, undefined, undefined, error);
      }
      return JSON.parse(new TextDecoder().decode(bytes)) as T;
    },
  };
}
