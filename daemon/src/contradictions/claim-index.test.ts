import { describe, expect, it } from "vitest";
import { ClaimIndex } from "./claim-index.js";
import { claimKeys, lookupKeys } from "./claim-keys.js";
import { readClaims } from "./claims.js";

const keysOf = (text: string) => claimKeys(readClaims(text));

describe("the index of claims", () => {
  it("finds the memory that fills the same slot, and not one about another slot", () => {
    const index = new ClaimIndex();
    index.set("clerk", "acme", keysOf("Auth is Clerk, not custom JWT."));
    index.set("pnpm", "acme", keysOf("Always use pnpm in this repo."));
    expect(index.lookup(lookupKeys(readClaims("Auth moved to Auth0 last sprint.")), ["acme", "global"], 8)).toEqual(["clerk"]);
  });

  it("looks only in the projects asked for", () => {
    const index = new ClaimIndex();
    index.set("there", "other", keysOf("Postgres listens on 5432."));
    index.set("global", "global", keysOf("The db port is 5434 on every machine."));
    expect(index.lookup(lookupKeys(readClaims("The db port is 5433 now.")), ["acme", "global"], 8)).toEqual(["global"]);
  });

  it("ranks first the memory sharing the rarer keys, and returns at most the limit", () => {
    const index = new ClaimIndex();
    for (let i = 0; i < 5; i += 1) index.set(`port-${i}`, "acme", keysOf(`Service ${i} listens on port ${6000 + i}.`));
    index.set("clerk", "acme", keysOf("Auth is Clerk; its webhook listens on port 7000."));
    const found = index.lookup(lookupKeys(readClaims("Auth moved to Auth0; its webhook listens on port 7001.")), ["acme"], 3);
    expect(found).toHaveLength(3);
    expect(found[0]).toBe("clerk");
  });

  it("finds a memory that says a phrase is gone from one that holds it", () => {
    const index = new ClaimIndex();
    index.set("dropped", "acme", keysOf("We stopped using Conventional Commits last month."));
    expect(index.lookup(lookupKeys(readClaims("Commit messages follow Conventional Commits.")), ["acme"], 8)).toEqual(["dropped"]);
  });

  it("files a memory again under what it says now, and forgets a deleted one", () => {
    const index = new ClaimIndex();
    index.set("m", "acme", keysOf("Auth is Clerk."));
    index.set("m", "acme", keysOf("Errors go to Sentry."));
    expect(index.lookup(lookupKeys(readClaims("Auth moved to Auth0.")), ["acme"], 8)).toEqual([]);
    expect(index.lookup(lookupKeys(readClaims("Errors go to Rollbar now.")), ["acme"], 8)).toEqual(["m"]);
    index.delete("m");
    expect(index.lookup(lookupKeys(readClaims("Errors go to Rollbar now.")), ["acme"], 8)).toEqual([]);
    expect(index.size).toBe(0);
  });

  it("keeps finding the memories left under a shared key as others are filed and deleted", () => {
    const index = new ClaimIndex();
    const ids = Array.from({ length: 20 }, (_, i) => `m-${String(i).padStart(2, "0")}`);
    // Filed out of order, so that a key's memories are inserted between others.
    for (const id of [...ids].reverse()) index.set(id, "acme", ["slot:bundler"]);
    const lookup = () => index.lookup(new Map([["slot:bundler", 1]]), ["acme"], 50).sort();
    expect(lookup()).toEqual(ids);
    for (let left = ids.length; left > 0; left -= 1) {
      index.delete(ids[left - 1] as string);
      expect(lookup()).toEqual(ids.slice(0, left - 1));
    }
    expect(index.size).toBe(0);
    index.set("again", "acme", ["slot:bundler"]);
    expect(lookup()).toEqual(["again"]);
  });
});
