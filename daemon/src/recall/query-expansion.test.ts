import { describe, expect, it } from "vitest";
import { compileThesaurus, expandQuery } from "./query-expansion.js";
import { SOFTWARE_THESAURUS } from "./software-thesaurus.js";

const words = (phrases: readonly (readonly string[])[]) => phrases.map((p) => p.join(" "));

describe("compileThesaurus", () => {
  it("makes every member of a group expand to the others, on stems", () => {
    const thesaurus = compileThesaurus(["deploy, release, ship"]);
    expect(words(thesaurus.get("deploi") ?? [])).toEqual(["releas", "ship"]);
    expect(words(thesaurus.get("ship") ?? [])).toEqual(["deploi", "releas"]);
  });

  it("makes a broader term expand to its narrower ones and not back", () => {
    const thesaurus = compileThesaurus(["database > postgres, sqlite"]);
    expect(words(thesaurus.get("databas") ?? [])).toEqual(["postgr", "sqlite"]);
    expect(thesaurus.get("postgr")).toBeUndefined();
  });

  it("rejects a line with two arrows or nothing before one", () => {
    expect(() => compileThesaurus(["a > b > c"])).toThrow(/more than one/);
    expect(() => compileThesaurus([" > b"])).toThrow(/no term before/);
  });

  it("compiles the shipped thesaurus, every group with at least two members", () => {
    const thesaurus = compileThesaurus(SOFTWARE_THESAURUS);
    expect(thesaurus.size).toBeGreaterThan(200);
    for (const line of SOFTWARE_THESAURUS) expect(line.split(/[,>]/).filter((m) => m.trim() !== "").length).toBeGreaterThanOrEqual(2);
  });
});

describe("expandQuery", () => {
  it("adds synonyms of single words and of multi-word terms", () => {
    expect(words(expandQuery("which login provider do we rely on"))).toContain("auth");
    expect(words(expandQuery("where do I sign in"))).toContain("login");
  });

  it("adds nothing the query already says", () => {
    const added = words(expandQuery("login and auth"));
    expect(added).not.toContain("login");
    expect(added).not.toContain("auth");
  });

  it("adds nothing for a query outside the vocabulary", () => {
    expect(expandQuery("When did Caroline go to the support group?")).toEqual([]);
  });
});
