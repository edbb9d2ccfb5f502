import { Code, ConnectError } from "@connectrpc/connect";

const DOWN_CODES = new Set(["ENOENT", "ECONNREFUSED", "ECONNRESET", "EPIPE"]);

/**
 * True when a call failed because no daemon answered on the socket (not running, or gone mid-call).
 * Apart from transport.ts so that a client can classify failures without loading the transport:
 * memd-mcp loads that only on its first tool call.
 */
export function isDaemonDown(error: unknown): boolean {
  if (!(error instanceof ConnectError)) return false;
  if (error.code !== Code.Unavailable && error.code !== Code.Internal) return false;
  // The HTTP/1.1 client reports a failed connect as Internal with the socket error as cause.
  const cause = error.cause as NodeJS.ErrnoException | undefined;
  return DOWN_CODES.has(cause?.code ?? "");
}
