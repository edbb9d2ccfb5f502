import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isKindFolderName } from "./file-name.js";
import { VaultFiles } from "./vault-files.js";
import { VaultPathError } from "./vault-folders.js";

let root: string;
let vault: string;
let outside: string;
let files: VaultFiles;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "memd-vault-files-"));
  vault = path.join(root, "vault");
  outside = path.join(root, "outside");
  fs.mkdirSync(path.join(vault, "shop", "fact"), { recursive: true });
  fs.mkdirSync(path.join(outside, "fact"), { recursive: true });
  fs.writeFileSync(path.join(outside, "post.md"), "---\ntitle: My blog post\n---\nHello.\n");
  fs.writeFileSync(path.join(outside, "fact", "note.md"), "---\ntitle: A note\n---\nMine.\n");
  files = new VaultFiles(vault, 1024);
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every file under the folder outside the vault, with its text: what must never change. */
function outsideState(): Record<string, string> {
  const state: Record<string, string> = {};
  for (const entry of fs.readdirSync(outside, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) state[path.relative(outside, path.join(entry.parentPath, entry.name))] = fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8");
  }
  return state;
}

describe("VaultFiles.read", () => {
  it("reads a file, and says what a symbolic link at the file or at a folder on the way points to without reading it", () => {
    fs.writeFileSync(path.join(vault, "shop", "fact", "own.md"), "text");
    fs.symlinkSync(path.join(outside, "post.md"), path.join(vault, "shop", "fact", "post.md"));
    fs.symlinkSync(outside, path.join(vault, "blog"));
    expect(files.read("shop/fact/own.md")).toMatchObject({ kind: "text", text: "text" });
    expect(files.read("shop/fact/post.md")).toEqual({ kind: "link", link: "shop/fact/post.md", target: path.join(outside, "post.md") });
    expect(files.read("blog/fact/note.md")).toEqual({ kind: "link", link: "blog", target: outside });
    expect(files.read("shop/fact/none.md")).toEqual({ kind: "missing" });
  });

  it("reads where a link points only when no link is on the way to it", () => {
    fs.symlinkSync(path.join(outside, "post.md"), path.join(outside, "fact", "to-post.md"));
    fs.symlinkSync(path.join(outside, "fact"), path.join(vault, "shop", "decision"));
    expect(files.linkTarget("shop/decision")).toBe(path.join(outside, "fact"));
    expect(files.linkTarget("shop/decision/to-post.md")).toBe("");
    expect(files.linkTarget("shop/fact")).toBe("");
  });

  it("refuses a FIFO without blocking, and a file over the size limit", () => {
    execFileSync("mkfifo", [path.join(vault, "shop", "fact", "pipe.md")]);
    fs.writeFileSync(path.join(vault, "shop", "fact", "big.md"), "x".repeat(2048));
    expect(files.read("shop/fact/pipe.md")).toMatchObject({ kind: "refused", reason: expect.stringContaining("not a regular file") });
    expect(files.read("shop/fact/big.md")).toMatchObject({ kind: "refused", reason: expect.stringContaining("2048 bytes") });
  });
});

describe("VaultFiles.write", () => {
  it("writes through no link: a linked folder on the way or a link at the file is refused and nothing outside changes", async () => {
    const before = outsideState();
    fs.symlinkSync(path.join(outside, "fact"), path.join(vault, "shop", "decision"));
    fs.symlinkSync(path.join(outside, "post.md"), path.join(vault, "shop", "fact", "post.md"));
    fs.symlinkSync(outside, path.join(vault, "blog"));
    for (const target of ["shop/decision/x.md", "shop/fact/post.md", "blog/fact/note.md"]) {
      await expect(files.write(target, "---\nid: x\n---\nmemd\n", () => true)).rejects.toBeInstanceOf(VaultPathError);
    }
    expect(outsideState()).toEqual(before);
    expect(fs.readlinkSync(path.join(vault, "shop", "fact", "post.md"))).toBe(path.join(outside, "post.md"));
  });

  // Linux only: the folder is held open and reached through /proc/self/fd, which only Linux has. CI runs Debian, so there it always runs.
  it.runIf(process.platform === "linux")("keeps writing into the folder it checked when a link replaces that folder before the rename", async () => {
    const before = outsideState();
    const folder = path.join(vault, "shop", "fact");
    const written = await files.write("shop/fact/a.md", "memd's text\n", () => {
      // Planted between memd's check of the folder and its rename into it.
      fs.renameSync(folder, path.join(vault, "shop", "fact-moved"));
      fs.symlinkSync(path.join(outside, "fact"), folder);
      return true;
    });
    expect(written).toBe(true);
    expect(outsideState()).toEqual(before);
    expect(fs.readFileSync(path.join(vault, "shop", "fact-moved", "a.md"), "utf8")).toBe("memd's text\n");
  });

  it("does not replace a link planted at the file while the text was being written", async () => {
    const before = outsideState();
    const file = path.join(vault, "shop", "fact", "a.md");
    await expect(files.write("shop/fact/a.md", "memd's text\n", () => {
      fs.symlinkSync(path.join(outside, "post.md"), file);
      return true;
    })).rejects.toBeInstanceOf(VaultPathError);
    expect(outsideState()).toEqual(before);
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["a.md"]);
  });

  it("keeps an existing file's mode without changing the mode of a file a link put in place of its temporary file points to", async () => {
    const file = path.join(vault, "shop", "fact", "a.md");
    fs.writeFileSync(file, "old\n", { mode: 0o600 });
    fs.chmodSync(path.join(outside, "post.md"), 0o644);
    // Whatever sets the mode by name is the moment a link can take the temporary file's place.
    const byName = fs.promises.chmod;
    const spy = vi.spyOn(fs.promises, "chmod").mockImplementation(async (temp, mode) => {
      fs.rmSync(temp);
      fs.symlinkSync(path.join(outside, "post.md"), temp);
      return byName(temp, mode);
    });
    try {
      await files.write("shop/fact/a.md", "new\n", () => true).catch(() => undefined);
    } finally {
      spy.mockRestore();
    }
    expect(fs.statSync(path.join(outside, "post.md")).mode & 0o777).toBe(0o644);
    expect(fs.readFileSync(path.join(outside, "post.md"), "utf8")).toContain("My blog post");
    expect(fs.lstatSync(file).isFile() && fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("makes the folders it needs, one at a time", async () => {
    expect(await files.write("ops/rule/b.md", "text\n", () => true)).toBe(true);
    expect(fs.readFileSync(path.join(vault, "ops", "rule", "b.md"), "utf8")).toBe("text\n");
  });
});

describe("VaultFiles.remove and removeTemporary", () => {
  it("removes nothing through a linked folder, even a file with the text memd wrote", () => {
    fs.writeFileSync(path.join(outside, "fact", "mine.md"), "memd's text\n");
    fs.rmSync(path.join(vault, "shop", "fact"), { recursive: true });
    fs.symlinkSync(path.join(outside, "fact"), path.join(vault, "shop", "fact"));
    files.remove("shop/fact/mine.md", () => true);
    expect(fs.readFileSync(path.join(outside, "fact", "mine.md"), "utf8")).toBe("memd's text\n");
  });

  it("removes only memd's temporary files written before a time, never a link or another dot-file", () => {
    const dir = path.join(vault, "shop", "fact");
    const stale = ".a.md.memd-0123456789ab.tmp";
    fs.writeFileSync(path.join(dir, stale), "half");
    fs.writeFileSync(path.join(dir, ".keep"), "");
    fs.symlinkSync(path.join(outside, "post.md"), path.join(dir, ".b.md.memd-0123456789ac.tmp"));
    const entries = [...files.entries(isKindFolderName, () => false)];
    expect(entries).toEqual([{ kind: "temporary", path: `shop/fact/${stale}` }]);
    expect(files.removeTemporary(`shop/fact/${stale}`, fs.statSync(path.join(dir, stale)).mtimeMs)).toBe(false);
    expect(files.removeTemporary(`shop/fact/${stale}`, Date.now() + 1000)).toBe(true);
    expect(files.removeTemporary("shop/fact/.b.md.memd-0123456789ac.tmp", Date.now() + 1000)).toBe(false);
    expect(fs.readdirSync(dir).sort()).toEqual([".b.md.memd-0123456789ac.tmp", ".keep"]);
    expect(outsideState()["post.md"]).toContain("My blog post");
  });
});

describe("VaultFiles.entries", () => {
  it("lists memd's files and the links at memd's places, following none", () => {
    fs.writeFileSync(path.join(vault, "shop", "fact", "own.md"), "text");
    fs.symlinkSync(path.join(outside, "post.md"), path.join(vault, "shop", "fact", "post.md"));
    fs.symlinkSync(path.join(outside, "fact"), path.join(vault, "shop", "decision"));
    fs.symlinkSync(outside, path.join(vault, "blog"));
    fs.symlinkSync(outside, path.join(vault, "attachments"));
    fs.mkdirSync(path.join(vault, "notes"));
    fs.writeFileSync(path.join(vault, "notes", "todo.md"), "mine");
    expect([...files.entries(isKindFolderName, (name) => name === "blog")]).toEqual([
      { kind: "link", path: "blog", target: outside },
      { kind: "link", path: "shop/decision", target: path.join(outside, "fact") },
      { kind: "file", path: "shop/fact/own.md" },
      { kind: "link", path: "shop/fact/post.md", target: path.join(outside, "post.md") },
    ]);
  });
});
