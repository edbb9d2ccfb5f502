import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyChanges, readContents } from "./apply.js";
import { type FileChange, SetupError } from "./file-change.js";

const NOW = new Date("2026-03-05T10:11:12.345Z");
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-apply-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function change(file: string, before: string | null, after: string | null, backup = true): FileChange {
  return { target: "claude", path: file, before, after, summary: [], backup, mode: 0o600 };
}

describe("applying a plan", () => {
  it("backs up an existing file with a timestamp, then replaces it keeping its mode", () => {
    const file = path.join(dir, "settings.json");
    fs.writeFileSync(file, "old\n", { mode: 0o640 });
    fs.chmodSync(file, 0o640);
    const [applied] = applyChanges([change(file, "old\n", "new\n")], NOW);
    expect(applied?.backup).toBe(`${file}.memd-backup-20260305T101112Z`);
    expect(fs.readFileSync(`${file}.memd-backup-20260305T101112Z`, "utf8")).toBe("old\n");
    expect(fs.readFileSync(file, "utf8")).toBe("new\n");
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    expect(fs.readdirSync(dir).sort()).toEqual(["settings.json", "settings.json.memd-backup-20260305T101112Z"]);
  });

  it("creates missing directories and new files with the change's mode, without a backup", () => {
    const file = path.join(dir, "a", "b", ".claude.json");
    const [applied] = applyChanges([change(file, null, "{}\n")], NOW);
    expect(applied?.backup).toBeNull();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("leaves unchanged files alone and takes no backup of them", () => {
    const file = path.join(dir, "same.json");
    fs.writeFileSync(file, "same\n");
    expect(applyChanges([change(file, "same\n", "same\n")], NOW)).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(["same.json"]);
  });

  it("writes through a symlink instead of replacing it", () => {
    const real = path.join(dir, "dotfiles-settings.json");
    const link = path.join(dir, "settings.json");
    fs.writeFileSync(real, "old\n");
    fs.symlinkSync(real, link);
    applyChanges([change(link, "old\n", "new\n")], NOW);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, "utf8")).toBe("new\n");
  });

  it("writes through a symlink whose target does not exist yet, creating the target", () => {
    const real = path.join(dir, "dotfiles", "claude", "settings.json");
    const link = path.join(dir, "settings.json");
    fs.symlinkSync(real, link);
    const [applied] = applyChanges([change(link, null, "{}\n")], NOW);
    expect(applied?.backup).toBeNull();
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, "utf8")).toBe("{}\n");
    expect(fs.statSync(real).mode & 0o777).toBe(0o600);
  });

  it("resolves a relative link against the link's directory, not the working directory", () => {
    fs.mkdirSync(path.join(dir, "home", ".claude"), { recursive: true });
    const link = path.join(dir, "home", ".claude", "settings.json");
    fs.symlinkSync("../../dotfiles/settings.json", link);
    applyChanges([change(link, null, "new\n")], NOW);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(dir, "dotfiles", "settings.json"), "utf8")).toBe("new\n");
  });

  it("puts the backup of a linked file beside the link, and leaves the link's directory otherwise alone", () => {
    fs.mkdirSync(path.join(dir, "dotfiles"));
    const real = path.join(dir, "dotfiles", "config.toml");
    const link = path.join(dir, "config.toml");
    fs.writeFileSync(real, "old\n");
    fs.symlinkSync("dotfiles/config.toml", link);
    const [applied] = applyChanges([change(link, "old\n", "new\n")], NOW);
    expect(applied?.backup).toBe(`${link}.memd-backup-20260305T101112Z`);
    expect(fs.readFileSync(`${link}.memd-backup-20260305T101112Z`, "utf8")).toBe("old\n");
    expect(fs.readdirSync(path.join(dir, "dotfiles"))).toEqual(["config.toml"]);
    expect(fs.readFileSync(real, "utf8")).toBe("new\n");
  });

  it("still refuses a dangling link whose target appeared since planning", () => {
    const real = path.join(dir, "real.json");
    const link = path.join(dir, "settings.json");
    fs.symlinkSync(real, link);
    fs.writeFileSync(real, "written meanwhile\n");
    expect(() => applyChanges([change(link, null, "{}\n")], NOW)).toThrow(/changed while memctl was planning/);
    expect(fs.readFileSync(real, "utf8")).toBe("written meanwhile\n");
  });

  it("removes a file, and numbers a second backup taken in the same second", () => {
    const file = path.join(dir, "AGENTS.md");
    fs.writeFileSync(file, "x\n");
    fs.writeFileSync(`${file}.memd-backup-20260305T101112Z`, "earlier\n");
    const [applied] = applyChanges([change(file, "x\n", null)], NOW);
    expect(applied?.backup).toBe(`${file}.memd-backup-20260305T101112Z-2`);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("refuses to overwrite a file that changed since it was read", () => {
    const file = path.join(dir, "config.toml");
    fs.writeFileSync(file, "edited meanwhile\n");
    expect(() => applyChanges([change(file, "as planned\n", "new\n")], NOW)).toThrow(SetupError);
    expect(fs.readFileSync(file, "utf8")).toBe("edited meanwhile\n");
  });

  it("reads missing files as null", () => {
    const file = path.join(dir, "there");
    fs.writeFileSync(file, "t");
    expect(readContents([file, path.join(dir, "missing")])).toEqual(new Map([[file, "t"], [path.join(dir, "missing"), null]]));
  });
});
