import { describe, expect, it } from "vitest";
import { KeywordIndex, type KeywordScope } from "./keyword-index.js";
import { tokenize } from "./tokenize.js";

const EVERY_CLASS = new Uint8Array(256).fill(1);
/** A scope of groups 0 and 2 (a project and the global memories, in the search mirror). */
const LOCAL: KeywordScope<string> = { classes: EVERY_CLASS, groups: Uint8Array.of(1, 0, 1), limit: 10 };
const WIDE: KeywordScope<string> = { classes: EVERY_CLASS, limit: 10 };

const OWN: [number, string, number][] = [
  [1, "we moved the cron job to tonight", 0],
  [2, "the cron job failed on the migration", 0],
  [3, "postgres migration notes", 2],
];
/** Another project that says "tonight" in every row, and "migration" never. */
const CHAT: [number, string, number][] = Array.from({ length: 40 }, (_, i) => [100 + i, `dinner tonight at eight ${i}`, 1]);

function build(rows: readonly [number, string, number][]): KeywordIndex<string> {
  const index = new KeywordIndex<string>([1]);
  for (const [seq, text, group] of rows) index.set(seq, [tokenize(text)], 0, group * 256, text);
  return index;
}

function scored(index: KeywordIndex<string>, query: string, scope: KeywordScope<string>): [number, number][] {
  const phrases = tokenize(query).map((token) => [token]);
  return (index.search(phrases, [scope])[0] ?? []).map((hit) => [hit.seq, hit.score]);
}

describe("KeywordIndex with scope statistics", () => {
  it("ranks a scope of groups as an index of those groups alone would, whatever the other groups hold", () => {
    const alone = build(OWN);
    const shared = build([...OWN, ...CHAT]);
    const query = "tonight migration";
    expect(scored(shared, query, LOCAL)).toEqual(scored(alone, query, WIDE));
    // Over the whole store the chat's "tonight" is common, and the rows rank otherwise.
    expect(scored(shared, query, WIDE).filter(([seq]) => seq < 100)).not.toEqual(scored(alone, query, WIDE));
  });

  it("answers scopes of different groups in one search, each with its own statistics", () => {
    const shared = build([...OWN, ...CHAT]);
    const phrases = [["tonight"], ["migrat"]];
    const [local, wide] = shared.search(phrases, [LOCAL, WIDE]);
    expect(local?.map((hit) => [hit.seq, hit.score])).toEqual(scored(build(OWN), "tonight migration", WIDE));
    expect(wide?.map((hit) => [hit.seq, hit.score])).toEqual(scored(shared, "tonight migration", WIDE));
  });

  it("follows a row that is deleted or moved to another group", () => {
    const shared = build([...OWN, ...CHAT]);
    shared.delete(2);
    shared.setFacets(3, 1 * 256, "moved");
    expect(scored(shared, "tonight migration", LOCAL)).toEqual(scored(build([OWN[0] as [number, string, number]]), "tonight migration", WIDE));
  });
});
