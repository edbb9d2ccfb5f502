import { describe, expect, it } from "vitest";
import { failureTrace } from "../capture/failure-trace.js";
import { codeWords, identifierTokens, missingIdentifiers } from "./identifier-tokens.js";

describe("identifierTokens", () => {
  it("finds numbers, paths, dotted names, camelCase, all-caps codes and flags, and leaves prose and abbreviations", () => {
    const tokens = identifierTokens("Run `pnpm test --run` in src/auth, e.g. after verifyAccessToken fails with ECONNRESET on port 5433 (PAY-1423, pnpm-lock.yaml).");
    expect([...tokens].sort()).toEqual(["--run", "5433", "ECONNRESET", "PAY-1423", "pnpm-lock.yaml", "src/auth", "verifyAccessToken"].sort());
  });

  it("lists what a text dropped, once each", () => {
    const members = [
      "The nightly backup job writes to the s3 bucket ops-backups at 02:00 UTC.",
      "The nightly backup (scripts/backup.sh) writes to ops-backups; it failed with ECONNRESET twice.",
    ];
    expect(missingIdentifiers(members, "The nightly backup writes to ops-backups at 02:00 UTC.")).toEqual(["s3", "scripts/backup.sh", "ECONNRESET"]);
  });
});

describe("codeWords", () => {
  it("takes the words of code spans and shell lines", () => {
    expect([...codeWords("Run `make lint` first.\n$ git push origin main\nThen relax.")]).toEqual(["make", "lint", "git", "push", "origin", "main"]);
  });

  it("takes the command of a failure trace as capture writes it, and not its error lines", () => {
    const trace = failureTrace("npm test", "Exit code 1\nnpm ERR! missing script: test", false) as string;
    expect([...codeWords(trace)]).toEqual(["npm", "test"]);
  });
});
