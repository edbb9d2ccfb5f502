import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Files and links a hostile neighbour can plant in a vault (a git pull into a vault kept in
 * git, a sync tool, another local program): each is planted at one of memd's places, and memd
 * must neither follow it out of the vault nor read it into a memory, nor loop on it, nor stop.
 * `outside` is a folder outside the vault whose files must never change.
 */
export interface HostileVaultFile {
  name: string;
  /** The path in the vault it is planted at. */
  path: string;
  /** How memd must report it: in `links`, in `unreadable`, or not at all (a link memd keeps no files under). */
  reported: "link" | "unreadable" | "none";
  plant(vault: string, outside: string): void;
}

/** Nested YAML aliases: each level lists the one before nine times, so `depth` levels stand for 9^depth values. */
export function aliasBomb(depth: number): string {
  let yaml = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (let i = 1; i <= depth; i++) yaml += `l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(", ")}]\n`;
  return yaml;
}

/** A Markdown note outside the vault that looks like a memory file (it starts with ---): a blog post, an Obsidian note. */
export const OUTSIDE_NOTE = "---\ntitle: Notes from the offsite\ntags: [team]\n---\nWe agreed to move the standup to 10:00.\n";

function write(file: string, text: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function link(target: string, at: string): void {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at);
}

/** A symbolic link planted at `at` in the vault, to `target` (outside the vault, or a name beside the link). */
function plantedLink(name: string, at: string, reported: HostileVaultFile["reported"], target: (outside: string) => string): HostileVaultFile {
  return { name, path: at, reported, plant: (vault, outside) => link(target(outside), path.join(vault, at)) };
}

export const HOSTILE_VAULT_FILES: readonly HostileVaultFile[] = [
  plantedLink("a link to a Markdown note outside the vault, at a memory's file", "shop/fact/offsite.md", "link", (outside) => path.join(outside, "offsite.md")),
  plantedLink("a link to a folder of notes outside the vault, at a kind's folder", "blog/fact", "link", (outside) => path.join(outside, "notes")),
  plantedLink("a link to a folder outside the vault at a project's folder memd keeps no files in", "elsewhere", "none", (outside) => outside),
  plantedLink("a link to a secret outside the vault, named like a memory's file", "shop/decision/ssh-config.md", "link", (outside) => path.join(outside, "ssh-config")),
  plantedLink("a dangling link", "shop/fact/gone.md", "link", (outside) => path.join(outside, "does-not-exist.md")),
  plantedLink("a link to itself", "shop/fact/loop.md", "link", () => "loop.md"),
  {
    name: "a FIFO named like a memory's file (reading it would block forever)",
    path: "shop/fact/pipe.md",
    reported: "unreadable",
    plant: (vault) => {
      fs.mkdirSync(path.join(vault, "shop/fact"), { recursive: true });
      execFileSync("mkfifo", [path.join(vault, "shop/fact/pipe.md")]);
    },
  },
  {
    name: "a YAML alias bomb (9^10 values in 1 KB)",
    path: "shop/fact/bomb.md",
    reported: "unreadable",
    plant: (vault) => write(path.join(vault, "shop/fact/bomb.md"), `---\n${aliasBomb(10)}---\nboom\n`),
  },
  {
    name: "an alias bomb in a file with a memd id",
    path: "shop/fact/bomb-with-id.md",
    reported: "unreadable",
    plant: (vault) => write(path.join(vault, "shop/fact/bomb-with-id.md"), `---\nid: 01JZ4TG8P0X3M9QK5RDWN7B2HC\n${aliasBomb(10)}---\nboom\n`),
  },
  {
    name: "a frontmatter of 30,000 keys",
    path: "shop/fact/keys.md",
    reported: "none",
    plant: (vault) => write(path.join(vault, "shop/fact/keys.md"), `---\n${Array.from({ length: 30_000 }, (_, i) => `k${i}: v`).join("\n")}\n---\nmany keys\n`),
  },
  {
    name: "a frontmatter nested 20,000 deep",
    path: "shop/fact/deep.md",
    reported: "unreadable",
    plant: (vault) => write(path.join(vault, "shop/fact/deep.md"), `---\nk: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n---\ndeep\n`),
  },
  {
    name: "a frontmatter nested 600 deep, which the YAML parser still holds (and each step after it would have to)",
    path: "shop/fact/nested.md",
    reported: "unreadable",
    plant: (vault) => write(path.join(vault, "shop/fact/nested.md"), `---\nk: ${"[".repeat(600)}${"]".repeat(600)}\n---\nnested\n`),
  },
  {
    name: "block mappings indented 400 deep",
    path: "shop/fact/indented.md",
    reported: "unreadable",
    plant: (vault) => write(path.join(vault, "shop/fact/indented.md"), `---\n${Array.from({ length: 400 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")} v\n---\nindented\n`),
  },
  {
    name: "a file far larger than any memory's",
    path: "shop/fact/huge.md",
    reported: "unreadable",
    plant: (vault) => write(path.join(vault, "shop/fact/huge.md"), `---\nkind: fact\n---\n${"x".repeat(8 * 1024 * 1024)}\n`),
  },
  {
    name: "binary garbage with NUL bytes and invalid UTF-8",
    path: "shop/fact/garbage.md",
    reported: "unreadable",
    plant: (vault) => write(path.join(vault, "shop/fact/garbage.md"), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0xfe, 0xc3, 0x28, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a])),
  },
  {
    name: "a folder named like a memory's file",
    path: "shop/fact/folder.md",
    reported: "none",
    plant: (vault) => fs.mkdirSync(path.join(vault, "shop/fact/folder.md"), { recursive: true }),
  },
];

/** The folder outside the vault that the links point into. */
export function plantOutside(outside: string): void {
  write(path.join(outside, "offsite.md"), OUTSIDE_NOTE);
  write(path.join(outside, "notes", "retro.md"), OUTSIDE_NOTE.replace("offsite", "retro"));
  write(path.join(outside, "fact", "post.md"), OUTSIDE_NOTE.replace("offsite", "post"));
  write(path.join(outside, "ssh-config"), "---\nHost prod\n  IdentityFile ~/.ssh/prod\n---\n");
}

/** Every file under `dir`, with its bytes and its modification time: what must not change. */
export function folderState(dir: string): Record<string, string> {
  const state: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile()) state[path.relative(dir, file)] = `${fs.statSync(file).mtimeMs} ${fs.readFileSync(file, "base64")}`;
    else if (entry.isDirectory()) state[`${path.relative(dir, file)}/`] = "";
  }
  return state;
}
