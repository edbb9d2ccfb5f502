import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FolderWatch } from "./folder-watch.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("FolderWatch", () => {
  it("sees every later change to a file in two folders made at once, twenty times out of twenty", async () => {
    let seen = 0;
    for (let round = 0; round < 20; round++) {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "memd-fw-"));
      made.push(root);
      const files: string[] = [];
      const watch = new FolderWatch(root, { file: (file) => files.push(file), folderMade: () => undefined, folderGone: () => undefined, link: () => undefined, skip: (name) => name.startsWith(".") });
      watch.start();
      const file = path.join(root, "ops", "fact", "a.md");
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      fs.writeFileSync(path.join(root, "ops", "fact", ".a.tmp"), "x");
      fs.renameSync(path.join(root, "ops", "fact", ".a.tmp"), file);
      // A sentinel written after them: once it is seen, so were the events of the folders' making.
      const sentinel = path.join(root, "ops", "fact", "sentinel.md");
      fs.writeFileSync(sentinel, "x");
      await until(() => files.includes(sentinel));
      files.length = 0;
      fs.writeFileSync(file, "edited");
      await until(() => files.includes(file));
      if (files.includes(file)) seen += 1;
      watch.close();
    }
    expect(seen).toBe(20);
  });

  it("reports a folder deleted as a whole, skips dot-files, and reports the files of a folder that appears", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "memd-fw-"));
    made.push(root);
    const files: string[] = [];
    const gone: string[] = [];
    fs.mkdirSync(path.join(root, "shop"));
    const watch = new FolderWatch(root, { file: (file) => files.push(file), folderMade: () => undefined, folderGone: (dir) => gone.push(dir), link: () => undefined, skip: (name) => name.startsWith(".") });
    watch.start();
    fs.writeFileSync(path.join(root, "shop", ".tmp"), "x");
    // A folder moved in whole (a git checkout, a copy) holds files no event named.
    const staged = fs.mkdtempSync(path.join(os.tmpdir(), "memd-fw-in-"));
    made.push(staged);
    fs.writeFileSync(path.join(staged, "b.md"), "b");
    fs.renameSync(staged, path.join(root, "ops"));
    await until(() => files.includes(path.join(root, "ops", "b.md")));
    expect(files).toContain(path.join(root, "ops", "b.md"));
    expect(files.some((file) => file.endsWith(".tmp"))).toBe(false);
    fs.rmSync(path.join(root, "shop"), { recursive: true });
    await until(() => gone.length > 0);
    expect(gone).toEqual([path.join(root, "shop")]);
    watch.close();
  });
});
