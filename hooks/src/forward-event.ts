import http from "node:http";

/** A failed forward: the daemon refused the event, or the socket failed. */
export class HookForwardError extends Error {
  override readonly name = "HookForwardError";
}

/** The share of the remaining budget the daemon is given: the rest is for the answer's way back and printing it. */
const DEADLINE_SHARE = 0.8;

export interface ForwardRequest {
  socketPath: string;
  /** The daemon's hook route, e.g. /hooks/claude-code/UserPromptSubmit. */
  route: string;
  /** The agent's payload, as the hook received it. */
  payload: string;
  /** Aborts the request when the hook's budget runs out. */
  signal: AbortSignal;
  /** Told to the daemon as the request's deadline (Connect's header), so that it answers with what it has in time. */
  remainingMs: () => number;
}

/**
 * Posts a hook payload to the daemon over its Unix socket and resolves with the answer to print
 * ("" for none). node:http alone starts in a fraction of the time the Connect runtime takes,
 * and the hook runs once per prompt. One connection per call, closed afterwards, so that nothing
 * keeps the process alive. It also runs in Bun (memd's OpenCode plugin), whose node:http closes
 * an aborted or dropped request without an error event, and names a socket it cannot open
 * FailedToOpenSocket: a close before the whole answer came is a failure as well.
 */
export function forwardHookEvent(request: ForwardRequest): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let responded = false;
    const call = http.request(
      {
        socketPath: request.socketPath,
        method: "POST",
        path: request.route,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(request.payload),
          "connect-timeout-ms": Math.max(1, Math.floor(request.remainingMs() * DEADLINE_SHARE)),
        },
        agent: false,
        signal: request.signal,
      },
      (response) => {
        responded = true;
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("error", (error) => reject(new HookForwardError(error.message)));
        response.on("end", () => {
          if (response.statusCode === 200) {
            resolve(text);
            return;
          }
          reject(new HookForwardError(refusalText(response.statusCode ?? 0, text)));
        });
        response.on("close", () => reject(closedEarly(request.signal)));
      },
    );
    call.on("error", (error: NodeJS.ErrnoException) => {
      const down = error.code === "ENOENT" || error.code === "ECONNREFUSED" || error.code === "FailedToOpenSocket";
      reject(new HookForwardError(down ? `memd is not running (nothing answers on ${request.socketPath})` : `${error.code ?? error.name} ${error.message}`));
    });
    // Bun closes the request once the answer has begun; the answer's own close covers the rest.
    // Either is a no-op when an answer or an error came first (a promise settles once).
    call.on("close", () => {
      if (!responded) reject(closedEarly(request.signal));
    });
    call.end(request.payload);
  });
}

function closedEarly(signal: AbortSignal): HookForwardError {
  return new HookForwardError(signal.aborted ? "aborted: the budget ran out" : "the connection closed before the daemon answered");
}

/** "invalid_argument Save: cwd must be ..." from the daemon's Connect error JSON, or the status. */
function refusalText(status: number, body: string): string {
  try {
    const error = JSON.parse(body) as { code?: unknown; message?: unknown };
    if (typeof error.code === "string") return `${error.code} ${typeof error.message === "string" ? error.message : ""}`.trim();
  } catch {
    // Not JSON: say what arrived.
  }
  return `HTTP ${status}`;
}
