import type { DaemonLink } from "./daemon-link.js";

/** What every tool needs: the daemon, where the agent works, and who the agent is. */
export interface ToolContext {
  link: DaemonLink;
  /** Sent as cwd so that the daemon derives the project from the agent's working directory. */
  cwd: string;
  /** The session id used when a tool call gives none (empty if unknown). */
  sessionId: string;
  /** The connected MCP client's name, such as "claude-code", recorded as source_agent. */
  agent(): string;
  /** The daemon's entry point, for memory_start. */
  daemonMain: string;
}
