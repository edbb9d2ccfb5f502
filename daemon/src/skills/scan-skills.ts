import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../logger.js";
import type { InstalledSkill } from "./skill-coverage.js";
import { parseSkillFile } from "./skill-file.js";

/** A SKILL.md larger than this is not a skill anyone wrote by hand; it is skipped unread. */
const MAX_SKILL_FILE_BYTES = 1024 * 1024;

export interface ScannedSkills {
  /** Skills whose SKILL.md could be read and has frontmatter. */
  skills: InstalledSkill[];
  /** Every folder name in the skills directory, readable or not: a new skill must not reuse one. */
  folders: Set<string>;
}

/**
 * Reads `<dir>/<name>/SKILL.md` for every folder of a skills directory. A missing directory is
 * empty; unreadable, oversized and malformed files are skipped with a debug line, because a
 * stray file in someone's ~/.claude must never fail a Sync.
 */
export function scanSkillsDir(dir: string, logger: Logger): ScannedSkills {
  const result: ScannedSkills = { skills: [], folders: new Set() };
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") logger.debug({ err: error, dir }, "skills directory unreadable; skipped");
    return result;
  }
  for (const entry of entries) {
    const folder = path.join(dir, entry.name);
    if (!entry.isDirectory() && !(entry.isSymbolicLink() && isDirectory(folder))) continue;
    result.folders.add(entry.name);
    const file = path.join(folder, "SKILL.md");
    const skill = readSkill(file, entry.name, logger);
    if (skill) result.skills.push(skill);
  }
  return result;
}

function readSkill(file: string, folder: string, logger: Logger): InstalledSkill | null {
  let text: string;
  try {
    if (fs.statSync(file).size > MAX_SKILL_FILE_BYTES) {
      logger.debug({ file }, "SKILL.md too large; skipped");
      return null;
    }
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    logger.debug({ err: error, file }, "SKILL.md unreadable; skipped");
    return null;
  }
  const parsed = parseSkillFile(text);
  if (parsed === null) {
    logger.debug({ file }, "SKILL.md has no frontmatter; skipped");
    return null;
  }
  return { name: parsed.fields.name || folder, description: parsed.fields.description ?? "", body: parsed.body, file };
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}
