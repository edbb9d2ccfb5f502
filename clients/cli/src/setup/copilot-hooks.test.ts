import { describe, expect, it } from "vitest";
import { copilotHooksText, planCopilotHooks } from "./copilot-hooks.js";
import type { InstallPaths } from "./locations.js";
import { changeKind } from "./file-change.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/checkout/dist/daemon/src/main.js", mcp: "/opt/checkout/dist/clients/mcp/src/main.js", hook: "/opt/checkout/dist/hooks/src/main.js", shim: "/opt/checkout/hooks/memd-hook.sh", cli: "/opt/checkout/dist/clients/cli/src/main.js" };
const FILE = "/home/maya/.copilot/hooks/memd.json";

describe("Copilot CLI hooks", () => {
  it("writes the briefing, the pointers, the shell failures and the sweeps through the curl shim, timeouts in seconds", () => {
    const shim = (arg: string) => `/bin/sh /opt/checkout/hooks/memd-hook.sh ${arg} /usr/bin/node /opt/checkout/dist/hooks/src/main.js copilot`;
    expect(JSON.parse(copilotHooksText(paths, undefined))).toEqual({
      version: 1,
      hooks: {
        sessionStart: [{ type: "command", bash: shim("session-start"), timeoutSec: 10 }],
        userPromptSubmitted: [{ type: "command", bash: shim("user-prompt-submitted"), timeoutSec: 5 }],
        postToolUse: [{ type: "command", bash: shim("post-tool-use"), timeoutSec: 5, matcher: "bash|powershell" }],
        postToolUseFailure: [{ type: "command", bash: shim("post-tool-use-failure"), timeoutSec: 5, matcher: "bash|powershell" }],
        sessionEnd: [{ type: "command", bash: shim("session-end"), timeoutSec: 5 }],
        preCompact: [{ type: "command", bash: shim("pre-compact"), timeoutSec: 10 }],
      },
    });
  });

  it("changes nothing the second time, removes its own file, and leaves a memd.json of someone else's alone", () => {
    const text = copilotHooksText(paths, undefined);
    expect(changeKind(planCopilotHooks(FILE, null, text, paths.hook))).toBe("create");
    expect(changeKind(planCopilotHooks(FILE, text, text, paths.hook))).toBe("unchanged");
    expect(changeKind(planCopilotHooks(FILE, text, null, paths.hook))).toBe("delete");
    const theirs = JSON.stringify({ version: 1, hooks: { sessionStart: [{ type: "command", bash: "./my-memd-thing.sh" }] } });
    expect(planCopilotHooks(FILE, theirs, text, paths.hook)).toMatchObject({ after: theirs, summary: [expect.stringMatching(/^left alone/)] });
  });
});
