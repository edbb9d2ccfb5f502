import pino from "pino";
import { describe, expect, it } from "vitest";
import { isLinkPlace, LinksLeftAlone } from "./vault-links.js";

/** A vault's links as a map from path to target, and a logger that keeps what it was told. */
function setUp(links: Map<string, string>) {
  const warned: string[] = [];
  const logger = pino({ level: "warn" }, { write: (line: string) => warned.push(JSON.parse(line).path) });
  return { tracked: new LinksLeftAlone(logger, (relative) => links.get(relative) ?? ""), warned };
}

describe("isLinkPlace", () => {
  it("is a memory's file, a kind's folder, or a project folder memd keeps files under", () => {
    const keeps = (project: string) => project === "shop";
    expect(["shop/fact/a.md", "blog/fact", "shop"].map((p) => isLinkPlace(p, keeps))).toEqual([true, true, true]);
    expect(["blog", "notes/todo.md", "shop/attachments", "shop/fact/a.txt"].map((p) => isLinkPlace(p, keeps))).toEqual([false, false, false, false]);
  });
});

describe("LinksLeftAlone", () => {
  it("lists a link once found, logs it once, and forgets it when a look finds none there", () => {
    const links = new Map([["shop/fact", "/elsewhere"]]);
    const { tracked, warned } = setUp(links);
    tracked.found("shop/fact", "/elsewhere");
    expect(tracked.look("shop/fact")).toBe(true);
    expect(tracked.list()).toEqual([expect.objectContaining({ path: "shop/fact", reason: expect.stringContaining("a symbolic link to /elsewhere") })]);
    expect(warned).toEqual(["shop/fact"]);
    links.delete("shop/fact");
    expect(tracked.look("shop/fact")).toBe(false);
    expect(tracked.size).toBe(0);
  });

  it("looks again at every link under a folder that appeared or went", () => {
    const links = new Map([["blog/fact", "/a"], ["blog/decision/x.md", "/b"], ["shop/fact", "/c"]]);
    const { tracked } = setUp(links);
    for (const [relative, target] of links) tracked.found(relative, target);
    links.clear();
    tracked.lookUnder("blog");
    expect(tracked.list().map((l) => l.path)).toEqual(["shop/fact"]);
  });

  it("keeps at most a thousand links: more are left alone without being kept or logged", () => {
    const { tracked, warned } = setUp(new Map());
    for (let i = 0; i < 1500; i++) tracked.found(`p${i}/fact`, "/x");
    expect(tracked.size).toBe(1000);
    expect(warned).toHaveLength(1000);
  });
});
