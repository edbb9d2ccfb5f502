import { describe, expect, it } from "vitest";
import { AGENTS_BEGIN, AGENTS_END, agentsSectionBody, planAgentsMd, planAgentsMdRemoval, portableSocketPath } from "./agents-md.js";
import { changeKind, SetupError } from "./file-change.js";

const FILE = "/repo/AGENTS.md";
const RULES = "# Long-term memory (memd)\n\nSearch before you act.\n\n";
const CLI_PROMPT = `${RULES}## How (memctl)\nmemctl search x\n`;
const CURL_PROMPT = `${RULES}## How (curl, JSON over the local socket)\ncurl -s --unix-socket /home/maya/.memd/memd.sock ...\n`;
const USER_TEXT = "# Repo rules\n\nUse pnpm.\n";

describe("AGENTS.md section", () => {
  it("takes the memctl prompt whole and the curl examples after it", () => {
    expect(agentsSectionBody(CLI_PROMPT, CURL_PROMPT)).toBe(
      "# Long-term memory (memd)\n\nSearch before you act.\n\n## How (memctl)\nmemctl search x\n\n## How (curl, JSON over the local socket)\ncurl -s --unix-socket /home/maya/.memd/memd.sock ...",
    );
  });

  it("uses the memctl prompt alone when the prompts share no rules", () => {
    expect(agentsSectionBody("cli only\n", "different\n")).toBe("cli only");
  });

  it("writes the socket path relative to $HOME", () => {
    expect(portableSocketPath("S=/home/maya/.memd/memd.sock", "/home/maya/.memd/memd.sock", "/home/maya")).toBe("S=$HOME/.memd/memd.sock");
    expect(portableSocketPath("S=/srv/memd.sock", "/srv/memd.sock", "/home/maya")).toBe("S=/srv/memd.sock");
  });

  it("appends the section after a blank line, keeping the rest of the file", () => {
    const change = planAgentsMd(FILE, USER_TEXT, "body line");
    expect(change.after).toBe(`${USER_TEXT}\n${AGENTS_BEGIN}\nbody line\n${AGENTS_END}\n`);
    expect(change.summary).toEqual(["append the memd section"]);
    expect(change.backup).toBe(false);
  });

  it("creates a missing file with only the section", () => {
    const change = planAgentsMd(FILE, null, "body");
    expect(changeKind(change)).toBe("create");
    expect(change.after).toBe(`${AGENTS_BEGIN}\nbody\n${AGENTS_END}\n`);
  });

  it("replaces the section in place and changes nothing when it is current", () => {
    const text = `intro\n\n${AGENTS_BEGIN}\nold\n${AGENTS_END}\n\n## After\nkept\n`;
    const change = planAgentsMd(FILE, text, "new");
    expect(change.after).toBe(`intro\n\n${AGENTS_BEGIN}\nnew\n${AGENTS_END}\n\n## After\nkept\n`);
    expect(change.summary).toEqual(["update the memd section in place"]);
    expect(changeKind(planAgentsMd(FILE, change.after, "new"))).toBe("unchanged");
  });

  it("uninstall removes the section and nothing else", () => {
    const installed = planAgentsMd(FILE, USER_TEXT, "body").after;
    expect(planAgentsMdRemoval(FILE, installed).after).toBe(USER_TEXT);
    const middle = `intro\n\n${AGENTS_BEGIN}\nx\n${AGENTS_END}\n\n## After\n`;
    expect(planAgentsMdRemoval(FILE, middle).after).toBe("intro\n\n## After\n");
  });

  it("uninstall removes a file that held only the section, and leaves a file without one alone", () => {
    const removal = planAgentsMdRemoval(FILE, planAgentsMd(FILE, null, "body").after);
    expect(changeKind(removal)).toBe("delete");
    expect(changeKind(planAgentsMdRemoval(FILE, USER_TEXT))).toBe("unchanged");
    expect(changeKind(planAgentsMdRemoval(FILE, null))).toBe("unchanged");
  });

  it("leaves the MEMORY.md sync's own memd section alone", () => {
    const synced = "# Notes\n<!-- memd:begin (generated; edits here are overwritten) -->\n- fact\n<!-- memd:end -->\n";
    const installed = planAgentsMd(FILE, synced, "body").after;
    expect(installed).toBe(`${synced}\n${AGENTS_BEGIN}\nbody\n${AGENTS_END}\n`);
    expect(planAgentsMdRemoval(FILE, installed).after).toBe(synced);
  });

  it("refuses a section that is opened but never closed", () => {
    expect(() => planAgentsMd(FILE, `${AGENTS_BEGIN}\nno end\n`, "x")).toThrow(SetupError);
    expect(() => planAgentsMdRemoval(FILE, `a\n${AGENTS_BEGIN}\n`)).toThrow(`${FILE}:2`);
  });
});
