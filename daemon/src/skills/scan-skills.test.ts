import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scanSkillsDir } from "./scan-skills.js";

const silent = pino({ level: "silent" });

describe("scanSkillsDir", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-skills-"));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const write = (folder: string, text: string) => {
    fs.mkdirSync(path.join(dir, folder), { recursive: true });
    fs.writeFileSync(path.join(dir, folder, "SKILL.md"), text);
  };

  it("reads each folder's SKILL.md, naming a skill after its folder when the frontmatter has no name", () => {
    write("pdf", "---\nname: pdf-tools\ndescription: Fill PDF forms\n---\nUse pdftk.");
    write("unnamed", "---\ndescription: No name here\n---\nbody");
    const scan = scanSkillsDir(dir, silent);
    expect(scan.skills.map((s) => [s.name, s.description, s.body]).sort()).toEqual([
      ["pdf-tools", "Fill PDF forms", "Use pdftk."],
      ["unnamed", "No name here", "body"],
    ]);
  });

  it("treats a missing directory as empty", () => {
    expect(scanSkillsDir(path.join(dir, "absent"), silent)).toEqual({ skills: [], folders: new Set() });
  });

  it("skips malformed and missing SKILL.md files but still counts their folders as taken", () => {
    write("malformed", "# no frontmatter");
    fs.mkdirSync(path.join(dir, "empty"));
    fs.writeFileSync(path.join(dir, "stray.md"), "---\nname: stray\n---\n");
    write("good", "---\nname: good\ndescription: d\n---\n");
    const scan = scanSkillsDir(dir, silent);
    expect(scan.skills.map((s) => s.name)).toEqual(["good"]);
    expect(scan.folders).toEqual(new Set(["malformed", "empty", "good"]));
  });

  it("skips a SKILL.md that cannot be read (here a directory of that name)", () => {
    fs.mkdirSync(path.join(dir, "odd", "SKILL.md"), { recursive: true });
    write("good", "---\nname: good\ndescription: d\n---\n");
    expect(scanSkillsDir(dir, silent).skills.map((s) => s.name)).toEqual(["good"]);
  });
});
