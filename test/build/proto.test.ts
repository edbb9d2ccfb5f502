import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/daemon.js";

const BUF = path.join(REPO_ROOT, "node_modules/.bin/buf");

function buf(...args: string[]) {
  return spawnSync(BUF, args, { cwd: REPO_ROOT, encoding: "utf8" });
}

function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, full), fs.readFileSync(full, "utf8"));
  }
  return out;
}

describe("the proto API", () => {
  it("passes buf lint (STANDARD)", () => {
    const result = buf("lint");
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("has no breaking change against the recorded API baseline", () => {
    const result = buf("breaking", "--against", "test/build/api-baseline.binpb");
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("matches the committed gen/ output exactly (gen/ is not stale)", () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "memd-gen-"));
    try {
      const template = JSON.stringify({
        version: "v2",
        inputs: [{ directory: "proto" }],
        plugins: [{ local: path.join(REPO_ROOT, "node_modules/.bin/protoc-gen-es"), out, opt: ["target=ts", "import_extension=js"] }],
      });
      const result = buf("generate", "--template", template);
      expect(result.stderr).toBe("");
      const fresh = filesUnder(out);
      const committed = filesUnder(path.join(REPO_ROOT, "gen"));
      expect([...committed.keys()].sort()).toEqual([...fresh.keys()].sort());
      for (const [file, text] of fresh) expect(committed.get(file), `gen/${file} is stale: run npm run generate`).toBe(text);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
