// Claude Code (@anthropic-ai/claude-code, pinned in test/agents/package.json) run headless
// against the scripted model server, wired by the real `memctl setup`: what memd puts in front
// of the model, and what it stores from the session.
import { expect, it } from "vitest";
import { requestText } from "./model-server/model-server.js";
import { describeAgent, openWorld } from "./harness/suite.js";

describeAgent("claude", "memd through Claude Code's hooks", () => {
  it("briefs a new session: the project's decision reaches the model's first request", async () => {
    const world = await openWorld("claude");
    await world.memctl("add", "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
    const run = await world.run("Hello", [{ text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    const first = run.requests.find((request) => request.path.startsWith("/v1/messages?"));
    expect(first && requestText(first)).toContain("We deploy the billing service with Argo CD");
  });
});
