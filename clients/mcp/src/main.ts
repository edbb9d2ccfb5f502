#!/usr/bin/env node
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { memdEndpoint } from "../../transport/endpoint.js";
import { createDaemonLink } from "./daemon-link.js";
import { createMemdMcpServer } from "./server.js";
import { BoundedStdioTransport } from "./stdio-transport.js";

/**
 * memd-mcp: a stdio MCP server that turns tool calls into calls to the memd daemon.
 * stdout carries the protocol and nothing else; the daemon is reached lazily, on the first tool call.
 */

/** The daemon's entry point in the installed package, next to this adapter in dist/. */
const DAEMON_MAIN = fileURLToPath(new URL("../../../daemon/src/main.js", import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { home: { type: "string" } }, strict: false });
  const home = typeof values.home === "string" ? values.home : undefined;
  const server = createMemdMcpServer({
    version: packageVersion(),
    link: createDaemonLink(memdEndpoint(home)),
    cwd: process.cwd(),
    sessionId: agentSessionId(process.env),
    daemonMain: DAEMON_MAIN,
  });
  const transport = new BoundedStdioTransport();
  // stdout carries the protocol only: what went wrong with a message goes to stderr, as the agent's MCP log.
  server.server.onerror = (error) => process.stderr.write(`memd-mcp: ${error.message}\n`);
  // The client closing stdin ends the session; close cleanly instead of waiting for a signal.
  process.stdin.once("end", () => void server.close());
  await server.connect(transport);
}

/**
 * The agent session this server belongs to, so that saves carry it and the promotion gate tells
 * sessions apart. Claude Code (CLAUDE_CODE_SESSION_ID) and Copilot CLI (COPILOT_AGENT_SESSION_ID)
 * give stdio servers the same id as their hooks. Codex and Gemini CLI pass none (seen in
 * test/agents), but start one server per session: a name of this process's own stands for it.
 */
function agentSessionId(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CODE_SESSION_ID || env.COPILOT_AGENT_SESSION_ID || `mcp-${randomUUID()}`;
}

/** memd's version from the package.json above this file (in the source tree and in dist/). */
function packageVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "memd" && pkg.version) return pkg.version;
    } catch {
      // Not here; look one level up.
    }
  }
  return "0.0.0-unknown";
}

main().catch((error: unknown) => {
  process.stderr.write(`memd-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
