import { describe, expect, it } from "vitest";
import { claudeMemoryDir, claudeMemoryIndex, claudeProjectFolder, isIndexFile } from "./claude-paths.js";

describe("Claude Code paths", () => {
  it("name a project's folder after its root with every non-alphanumeric character as a dash", () => {
    expect(claudeProjectFolder("/home/maya/code/acme-api")).toBe("-home-maya-code-acme-api");
    expect(claudeProjectFolder("/home/maya/my.app_v2")).toBe("-home-maya-my-app-v2");
  });

  it("put the notes and the MEMORY.md index in the folder's memory directory", () => {
    expect(claudeMemoryDir("/home/maya/.claude", "/home/maya/code/acme-api")).toBe("/home/maya/.claude/projects/-home-maya-code-acme-api/memory");
    expect(claudeMemoryIndex("/c", "/r")).toBe("/c/projects/-r/memory/MEMORY.md");
  });

  it("recognise the index whatever its case, and nothing else", () => {
    expect(isIndexFile("/x/memory/MEMORY.md")).toBe(true);
    expect(isIndexFile("memory.md")).toBe(true);
    expect(isIndexFile("/x/memory/feedback_memory.md")).toBe(false);
  });
});
