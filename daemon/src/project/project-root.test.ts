import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveProjectRoot } from "./project-root.js";

let tmp: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "memd-project-")));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd, stdio: "ignore" });
}

describe("resolveProjectRoot", () => {
  it("names a repository by its top folder from any subdirectory", () => {
    const repo = path.join(tmp, "acme-api");
    fs.mkdirSync(path.join(repo, "src", "auth"), { recursive: true });
    git(repo, "init", "-q");
    expect(resolveProjectRoot(path.join(repo, "src", "auth"))).toEqual({ root: repo, name: "acme-api" });
  });

  it("gives every worktree of a repository the same project", () => {
    const repo = path.join(tmp, "acme-api");
    fs.mkdirSync(repo);
    git(repo, "init", "-q");
    git(repo, "commit", "-q", "--allow-empty", "-m", "init");
    const worktree = path.join(tmp, "acme-api-feature");
    git(repo, "worktree", "add", "-q", worktree);
    expect(resolveProjectRoot(worktree)).toEqual(resolveProjectRoot(repo));
  });

  it("uses a plain directory's own path outside any repository", () => {
    const dir = path.join(tmp, "notes");
    fs.mkdirSync(dir);
    expect(resolveProjectRoot(dir)).toEqual({ root: dir, name: "notes" });
  });
});
