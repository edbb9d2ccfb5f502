import { describe, expect, it } from "vitest";
import type { InstallPaths } from "./locations.js";
import { claudeCommandText, codexSkillText, planCommandFile } from "./memd-command.js";
import { changeKind } from "./file-change.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };
const FILE = "/home/maya/.claude/commands/memd.md";

describe("the /memd command", () => {
  it("runs memctl slash with the arguments before Claude sees the command, allowed for that command only", () => {
    const text = claudeCommandText(paths, undefined);
    expect(text).toContain("allowed-tools: Bash(/usr/bin/node /opt/memd/dist/clients/cli/src/main.js slash:*)");
    expect(text).toContain("!`/usr/bin/node /opt/memd/dist/clients/cli/src/main.js slash $ARGUMENTS`");
    expect(text).toContain('argument-hint: "[load|stats|clean|compact|health|start]"');
    expect(claudeCommandText(paths, "/data/memd")).toContain("!`MEMD_HOME=/data/memd /usr/bin/node");
  });

  it("gives Codex a skill named memd that asks its model to run the same command", () => {
    const skill = codexSkillText(paths, undefined);
    expect(skill).toMatch(/^---\n# Written by memctl setup; memctl uninstall removes it\.\nname: memd\ndescription: /);
    expect(skill).toContain("Run `/usr/bin/node /opt/memd/dist/clients/cli/src/main.js slash ACTION` in the shell");
  });

  it("writes and removes only a file that is memd's, leaving a user's own /memd alone", () => {
    const text = claudeCommandText(paths, undefined);
    const created = planCommandFile("claude", FILE, null, text, "the /memd command");
    expect(created).toMatchObject({ after: text, summary: ["add the /memd command"] });
    expect(changeKind(planCommandFile("claude", FILE, text, text, "the /memd command"))).toBe("unchanged");
    expect(changeKind(planCommandFile("claude", FILE, text, null, "the /memd command"))).toBe("delete");
    const theirs = "Summarise my memos: $ARGUMENTS\n";
    expect(planCommandFile("claude", FILE, theirs, text, "the /memd command")).toMatchObject({ after: theirs, summary: [expect.stringMatching(/^left alone: the \/memd command is not memd's/)] });
    expect(changeKind(planCommandFile("claude", FILE, theirs, null, "the /memd command"))).toBe("unchanged");
  });

  it("keeps its marker out of what the agent sends the model, and still owns a file an earlier setup marked in the body", () => {
    const text = claudeCommandText(paths, undefined);
    const body = text.slice(text.indexOf("\n---\n", 4) + 5);
    expect(body).not.toContain("memctl setup");
    const earlier = "---\ndescription: memd\n---\n<!-- Written by memctl setup; memctl uninstall removes it. -->\n!`memctl slash`\n";
    expect(planCommandFile("claude", FILE, earlier, text, "the /memd command")).toMatchObject({ after: text, summary: ["update the /memd command"] });
    expect(changeKind(planCommandFile("claude", FILE, earlier, null, "the /memd command"))).toBe("delete");
  });
});
