// GitHub Copilot CLI (@github/copilot, pinned in test/agents/package.json) run headless with -p
// in its offline bring-your-own-provider mode against the scripted model server (Anthropic
// Messages), wired by the real `memctl setup`.
import fs from "node:fs";
import path from "node:path";
import type { ModelRequest } from "./model-server/model-server.js";
import { toolsOffered } from "./model-server/model-server.js";
import { commonCapabilities } from "./harness/common-capabilities.js";
import { describeAgent } from "./harness/suite.js";

describeAgent("copilot", "memd through Copilot CLI's hooks and MCP server", () => {
  commonCapabilities({
    agent: "copilot",
    sourceAgent: "copilot",
    turns: (requests: readonly ModelRequest[]) => requests.filter((r) => r.path.startsWith("/v1/messages") && toolsOffered(r).length > 0),
    shell: (command) => ({ tool: "bash", input: { command, description: "Run it" } }),
    // Copilot gives its MCP servers the session id its hooks send (COPILOT_AGENT_SESSION_ID).
    mcpSession: (world) => fs.readdirSync(path.join(world.home, ".copilot", "session-state")).filter((name) => !name.startsWith("."))[0] ?? "",
  });
});
