import { ConnectError } from "@connectrpc/connect";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isDaemonDown } from "../../transport/daemon-down.js";

/** A failure whose message is already written for the agent. */
export class ToolFailure extends Error {
  override readonly name = "ToolFailure";
}

export const DAEMON_DOWN_MESSAGE = "memd is not running: call memory_start, then retry";

/**
 * Runs a tool body and turns any failure into an isError result the agent can act on: the
 * server never crashes on a tool call and never sends a stack trace.
 */
export async function runTool(body: () => Promise<string>): Promise<CallToolResult> {
  try {
    return { content: [{ type: "text", text: await body() }] };
  } catch (error) {
    return { content: [{ type: "text", text: describeFailure(error) }], isError: true };
  }
}

export function describeFailure(error: unknown): string {
  if (isDaemonDown(error)) return DAEMON_DOWN_MESSAGE;
  if (error instanceof ConnectError) return error.rawMessage;
  if (error instanceof Error) return error.message;
  return String(error);
}
