import type { Command } from "commander";
import { ConnectError } from "@connectrpc/connect";
import { memdEndpoint, type MemdEndpoint } from "../../transport/endpoint.js";
import { isDaemonDown } from "../../transport/daemon-down.js";
import { createMemdClients, createSocketTransport, type MemdClients } from "../../transport/transport.js";

/** What every command gets: where the daemon is, clients for it, and how to print. */
export interface CliContext {
  endpoint: MemdEndpoint;
  clients: MemdClients;
  json: boolean;
  print(text: string): void;
  printJson(value: unknown): void;
  /** A line for the person, on stderr, so that --json output stays one document. */
  note(text: string): void;
}

export class CliFailure extends Error {
  override readonly name = "CliFailure";
}

export function cliContext(command: Command): CliContext {
  const global = command.optsWithGlobals<{ home?: string; json?: boolean; timeout?: number }>();
  const endpoint = memdEndpoint(global.home);
  return {
    endpoint,
    clients: createMemdClients(createSocketTransport({ socketPath: endpoint.socketPath, timeoutMs: global.timeout })),
    json: global.json === true,
    print: (text) => process.stdout.write(`${text}\n`),
    printJson: (value) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    note: (text) => process.stderr.write(`memctl: note: ${text}\n`),
  };
}

/**
 * Wraps a command's action: failures print one line to stderr and set exit code 1, never a
 * stack trace. A daemon that is not running says so and how to start it.
 */
export function action<A extends unknown[]>(run: (ctx: CliContext, ...args: A) => Promise<void>) {
  return async function (this: Command, ...args: A): Promise<void> {
    const ctx = cliContext(this);
    try {
      await run(ctx, ...args);
    } catch (error) {
      process.stderr.write(`memctl: ${describeFailure(error, ctx.endpoint)}\n`);
      process.exitCode = 1;
    }
  };
}

function describeFailure(error: unknown, endpoint: MemdEndpoint): string {
  if (isDaemonDown(error)) {
    return `memd is not running (nothing answers on ${endpoint.socketPath}); start it with 'memctl start'`;
  }
  if (error instanceof ConnectError) return error.rawMessage;
  if (error instanceof Error) return error.message;
  return String(error);
}
