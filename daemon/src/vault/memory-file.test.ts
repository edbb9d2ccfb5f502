import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isMap, isSeq, parseDocument, visit } from "yaml";
import {
  EARLIEST_TIME_MS, LATEST_TIME_MS, MEMORY_KINDS, MEMORY_STATUSES, PROVENANCES, TIERS,
  type MemoryEvent, type MemoryRecord,
} from "../memory/memory.js";
import { foreignProperties, NOT_IN_VAULT, parseMemoryFile, renderMemoryFile, type MemoryFileLinks } from "./memory-file.js";
import { aliasBomb } from "../../../test/hostile/hostile-vault-files.js";

const SEED = 20261201;
const ID = "01JZ4TG8P0X3M9QK5RDWN7B2HC";
const at = (iso: string) => Date.parse(iso);

const checkpoint: MemoryRecord = {
  id: ID,
  content: "Run `npm run migrate` before the integration tests: they expect the schema of the latest migration.",
  kind: "procedure",
  project: "acme-api",
  problem: "The integration tests failed with \"no such column: tenant_id\".",
  solution: "npm run migrate\nnpm test",
  concepts: ["migrations", "integration tests"],
  files: ["db/migrations/0042_tenant.sql"],
  tags: [],
  confidence: 0.8,
  provenance: "checkpoint",
  tier: "regular",
  status: "active",
  pinned: false,
  importance: 3,
  valence: -0.25,
  intensity: 0.5,
  sessionId: "5f0c2e1a-sess",
  sourceAgent: "claude-code",
  createdAt: at("2026-12-01T09:31:02.118Z"),
  updatedAt: at("2026-12-02T14:00:00.000Z"),
  lastAccessedAt: at("2026-12-03T08:00:00.000Z"),
  expiresAt: null,
  reviewAt: at("2027-03-01T00:00:00.000Z"),
  accessCount: 7,
  supersedes: "01JZ4S0M3V8Q2T6W9YB5N1KD7F",
  supersededBy: "",
  archiveReason: "",
  invalidAt: null,
  author: "",
  editedBy: "",
  viaTeam: "",
};
const checkpointHistory: MemoryEvent[] = [
  { memoryId: ID, at: at("2026-12-01T09:31:02.118Z"), action: "created", sessionId: "5f0c2e1a-sess", detail: "checkpoint" },
  { memoryId: ID, at: at("2026-12-02T14:00:00.000Z"), action: "updated", sessionId: "", detail: "solution: added npm test" },
];
const checkpointLinks: MemoryFileLinks = { supersedes: "run-migrations-first-1kd7f", supersededBy: null };

const GOLDEN = `---
archive_reason: ""
concepts:
  - migrations
  - integration tests
confidence: 0.8
created: "2026-12-01T09:31:02.118Z"
expires: null
files:
  - db/migrations/0042_tenant.sql
history:
  - action: created
    at: "2026-12-01T09:31:02.118Z"
    detail: checkpoint
    session: 5f0c2e1a-sess
  - action: updated
    at: "2026-12-02T14:00:00.000Z"
    detail: "solution: added npm test"
    session: ""
id: 01JZ4TG8P0X3M9QK5RDWN7B2HC
importance: 3
intensity: 0.5
invalid: null
kind: procedure
pinned: false
project: acme-api
provenance: checkpoint
review: "2027-03-01T00:00:00.000Z"
session: 5f0c2e1a-sess
source_agent: claude-code
status: active
superseded_by: ""
superseded_by_link: ""
supersedes: 01JZ4S0M3V8Q2T6W9YB5N1KD7F
supersedes_link: "[[run-migrations-first-1kd7f]]"
tags: []
tier: regular
updated: "2026-12-02T14:00:00.000Z"
valence: -0.25
---
Run \`npm run migrate\` before the integration tests: they expect the schema of the latest migration.

## Problem

The integration tests failed with "no such column: tenant_id".

## Solution

npm run migrate
npm test
`;

/** The fields a file keeps: all of a record but the usage counters, and who else wrote it only when someone did. */
function vaultFields(memory: MemoryRecord): Partial<MemoryRecord> {
  const kept: Partial<MemoryRecord> = { ...memory };
  for (const field of NOT_IN_VAULT) delete kept[field];
  for (const field of ["author", "editedBy", "viaTeam"] as const) if (kept[field] === "") delete kept[field];
  return kept;
}

// Text that tests the format's edges: frontmatter fences, the section headings and their escapes,
// YAML's special words, and whitespace at either end.
const TRICKY_LINES = [
  "---", "...", "## Problem", "## Solution", "\\## Solution", "\\\\## Problem", "## Problem ", "# Problem", "",
  " ", "null", "yes", "~", "1e3", "0x1F", ": ", "a: b", "#", "- item", "[[link]]", "|", ">", "'", "\"", "\t",
  "  leading", "trailing  ", "2026-12-01", "\u2028", "\u0085", "é", "🧠",
];
const line = fc.oneof(fc.constantFrom(...TRICKY_LINES), fc.string({ unit: "binary", maxLength: 12 }));
const anyText = fc.oneof(fc.array(line, { maxLength: 6 }).map((lines) => lines.join("\n")), fc.string({ unit: "binary", maxLength: 20 }));
// A CR in the body reads back as a line end (editors' CRLF), so the body's text has none.
const bodyText = anyText.map((text) => text.replace(/\r/g, ""));
const ulid = fc.stringMatching(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
const time = fc.integer({ min: EARLIEST_TIME_MS, max: LATEST_TIME_MS });
const optionalTime = fc.option(time, { nil: null });
const stringList = fc.array(anyText, { maxLength: 4 });
const ACTIONS: MemoryEvent["action"][] = ["created", "updated", "superseded", "archived", "promoted", "rejected", "reinforced"];

const memoryArb: fc.Arbitrary<MemoryRecord> = fc.record({
  id: ulid,
  content: bodyText,
  kind: fc.constantFrom(...MEMORY_KINDS),
  project: anyText,
  problem: fc.oneof(fc.constant(""), bodyText),
  solution: fc.oneof(fc.constant(""), bodyText),
  concepts: stringList,
  files: stringList,
  tags: stringList,
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  provenance: fc.constantFrom(...PROVENANCES),
  tier: fc.constantFrom(...TIERS),
  status: fc.constantFrom(...MEMORY_STATUSES),
  pinned: fc.boolean(),
  importance: fc.integer({ min: 1, max: 5 }),
  valence: fc.double({ min: -1, max: 1, noNaN: true }),
  intensity: fc.double({ min: 0, max: 1, noNaN: true }),
  sessionId: anyText,
  sourceAgent: anyText,
  createdAt: time,
  updatedAt: time,
  lastAccessedAt: optionalTime,
  expiresAt: optionalTime,
  reviewAt: optionalTime,
  accessCount: fc.nat(),
  supersedes: fc.oneof(fc.constant(""), ulid),
  supersededBy: fc.oneof(fc.constant(""), ulid),
  archiveReason: anyText,
  invalidAt: optionalTime,
  author: fc.constantFrom("", "bo"),
  editedBy: fc.constantFrom("", "cy"),
  viaTeam: fc.constantFrom("", "core"),
});
const stem = fc.option(fc.stringMatching(/^[a-z0-9-]{1,20}$/), { nil: null });
const caseArb = memoryArb.chain((memory) =>
  fc.record({
    memory: fc.constant(memory),
    history: fc.array(
      fc.record({ memoryId: fc.constant(memory.id), at: time, action: fc.constantFrom(...ACTIONS), sessionId: anyText, detail: anyText }),
      { maxLength: 4 },
    ),
    links: fc.record({ supersedes: stem, supersededBy: stem }),
  }),
);

function frontmatterOf(text: string): string {
  return text.slice(4, text.indexOf("\n---\n") + 1);
}

describe("renderMemoryFile", () => {
  it("writes a checkpoint memory as sorted frontmatter, then the content, problem and solution", () => {
    expect(renderMemoryFile(checkpoint, checkpointHistory, checkpointLinks)).toBe(GOLDEN);
  });

  it("writes the same bytes for the same memory, with keys sorted at every level", () => {
    fc.assert(
      fc.property(caseArb, ({ memory, history, links }) => {
        const text = renderMemoryFile(memory, history, links);
        expect(renderMemoryFile(structuredClone(memory), structuredClone(history), { ...links })).toBe(text);
        const doc = parseDocument(frontmatterOf(text));
        visit(doc, {
          Map(_key, map) {
            const keys = map.items.map((pair) => String((pair.key as { value: unknown }).value));
            expect(keys).toEqual([...keys].sort());
          },
        });
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("writes no CR and no frontmatter line ending in whitespace, whatever the fields hold", () => {
    fc.assert(
      fc.property(caseArb, ({ memory, history, links }) => {
        const text = renderMemoryFile(memory, history, links);
        expect(text).not.toContain("\r");
        for (const l of frontmatterOf(text).split("\n")) expect(l).not.toMatch(/[ \t]$/);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("writes every list as a list, even an empty one, and unset times as null", () => {
    const text = renderMemoryFile({ ...checkpoint, concepts: [], files: [], reviewAt: null }, [], { supersedes: null, supersededBy: null });
    expect(text).toContain("\nconcepts: []\n");
    expect(text).toContain("\nfiles: []\n");
    expect(text).toContain("\nhistory: []\n");
    expect(text).toContain("\nreview: null\n");
    expect(text).toContain('\nsupersedes_link: ""\n');
  });

  it("leaves out the usage counters, which change on every recall", () => {
    const text = renderMemoryFile(checkpoint, [], checkpointLinks);
    expect(renderMemoryFile({ ...checkpoint, accessCount: 999, lastAccessedAt: null }, [], checkpointLinks)).toBe(text);
    expect(text).not.toMatch(/access/);
  });

  it("escapes a heading line in the text so that only the sections' own headings are bare", () => {
    const text = renderMemoryFile({ ...checkpoint, content: "## Problem\n\\## Solution", problem: "", solution: "" }, [], checkpointLinks);
    expect(text.slice(text.indexOf("\n---\n") + 5)).toBe("\\## Problem\n\\\\## Solution\n");
  });

  it("writes no sections when both problem and solution are empty", () => {
    const text = renderMemoryFile({ ...checkpoint, problem: "", solution: "" }, [], checkpointLinks);
    expect(text.endsWith(`---\n${checkpoint.content}\n`)).toBe(true);
  });
});

describe("parseMemoryFile", () => {
  it("gives back every field but the usage counters, and the history exactly", () => {
    fc.assert(
      fc.property(caseArb, ({ memory, history, links }) => {
        const parsed = parseMemoryFile(renderMemoryFile(memory, history, links));
        expect(parsed).toEqual({ ok: true, memory: vaultFields(memory), history });
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it("reads the golden file back", () => {
    expect(parseMemoryFile(GOLDEN)).toEqual({ ok: true, memory: vaultFields(checkpoint), history: checkpointHistory });
  });

  it("reads a file an editor saved with CRLF line ends and a byte order mark", () => {
    const crlf = `\uFEFF${GOLDEN.replace(/\n/g, "\r\n")}`;
    expect(parseMemoryFile(crlf)).toEqual(parseMemoryFile(GOLDEN));
  });

  it("reads a new memory written by hand as its content alone", () => {
    for (const text of ["---\n---\nUse pnpm, never npm.\n", "---\n{}\n---\nUse pnpm, never npm.", "---\n# a note\n---\nUse pnpm, never npm.\n"]) {
      expect(parseMemoryFile(text)).toEqual({ ok: true, memory: { content: "Use pnpm, never npm." }, history: null });
    }
  });

  it("reads the sections of a new memory without an id, with the events' memory id empty", () => {
    const text = "---\nkind: fact\nhistory:\n  - at: 2026-12-01\n    action: created\n---\nA\n## Problem\nB\n## Solution\nC\n";
    expect(parseMemoryFile(text)).toEqual({
      ok: true,
      memory: { kind: "fact", content: "A", problem: "B", solution: "C" },
      history: [{ memoryId: "", at: at("2026-12-01T00:00:00.000Z"), action: "created", sessionId: "", detail: "" }],
    });
  });

  it("reads a stored memory whose sections a person deleted as having no problem or solution", () => {
    const parsed = parseMemoryFile(`---\nid: ${ID}\n---\nJust the content.\n`);
    expect(parsed).toEqual({ ok: true, memory: { id: ID, content: "Just the content.", problem: "", solution: "" }, history: null });
  });

  it("finds the sections when a person left out the blank lines around the headings", () => {
    const parsed = parseMemoryFile(`---\nid: ${ID}\n---\nContent\n## Problem\nIt broke.\n## Solution\nFix it.`);
    expect(parsed).toMatchObject({ ok: true, memory: { content: "Content", problem: "It broke.", solution: "Fix it." } });
  });

  it("takes the last Problem heading before the last Solution heading as the sections", () => {
    const parsed = parseMemoryFile(`---\n---\n## Solution\n\n## Problem\n\nP1\n\n## Problem\n\nP2\n\n## Solution\n\nS\n`);
    expect(parsed).toMatchObject({ ok: true, memory: { content: "## Solution\n\n## Problem\n\nP1", problem: "P2", solution: "S" } });
  });

  it("ignores a person's own Obsidian properties and the derived wikilinks", () => {
    const edited = GOLDEN.replace("archive_reason", "aliases:\n  - migrate first\ncssclasses: wide\narchive_reason")
      .replace("[[run-migrations-first-1kd7f]]", "[[somewhere-else]]")
      .replace('superseded_by_link: ""', "superseded_by_link: 42");
    expect(parseMemoryFile(edited)).toEqual(parseMemoryFile(GOLDEN));
  });

  it("gives a person's own properties apart, to be written back, and none of memd's keys", () => {
    const edited = GOLDEN.replace("archive_reason", "aliases:\n  - migrate first\ncssclasses: wide\nrating: 4\narchive_reason");
    expect(foreignProperties(edited)).toEqual({ aliases: ["migrate first"], cssclasses: "wide", rating: 4 });
    expect(foreignProperties(GOLDEN)).toEqual({});
    // A frontmatter memd cannot read gives none: memd must not write over it.
    expect(foreignProperties("no frontmatter")).toBeNull();
    expect(foreignProperties("---\naliases: [unclosed\n---\n")).toBeNull();
    expect(foreignProperties("---\n---\nA new memory.\n")).toEqual({});
    const rendered = renderMemoryFile(checkpoint, checkpointHistory, checkpointLinks, foreignProperties(edited) ?? {});
    expect(rendered).toContain("---\naliases:\n  - migrate first\narchive_reason:");
    expect(rendered).toMatch(/\ncssclasses: wide\n/);
    expect(foreignProperties(rendered)).toEqual({ aliases: ["migrate first"], cssclasses: "wide", rating: 4 });
    expect(parseMemoryFile(rendered)).toEqual(parseMemoryFile(GOLDEN));
  });

  it("reads times as people write them: a date, no seconds, an offset, more digits", () => {
    const times = {
      "2026-12-01": "2026-12-01T00:00:00.000Z",
      "2026-12-01T09:31": "2026-12-01T09:31:00.000Z",
      "2026-12-01 09:31:02+02:00": "2026-12-01T07:31:02.000Z",
      "2026-12-01T09:31:02.1187Z": "2026-12-01T09:31:02.118Z",
      "0001-01-01T00:00:00.000Z": "0001-01-01T00:00:00.000Z",
      "9999-12-31T23:59:59.999Z": "9999-12-31T23:59:59.999Z",
    };
    for (const [written, iso] of Object.entries(times)) {
      expect(parseMemoryFile(`---\ncreated: ${written}\n---\n`)).toMatchObject({ ok: true, memory: { createdAt: Date.parse(iso) } });
    }
  });

  it("reads a blank list, text or optional time as empty", () => {
    expect(parseMemoryFile("---\ntags:\nsession:\nexpires: ~\n---\nx")).toEqual({
      ok: true, memory: { tags: [], sessionId: "", expiresAt: null, content: "x" }, history: null,
    });
  });
});

describe("parseMemoryFile on a broken file", () => {
  const errors: [string, string, number, RegExp][] = [
    ["no frontmatter", "Use pnpm.\n", 1, /does not start with a --- line/],
    ["unterminated frontmatter", "---\nkind: fact\nUse pnpm.\n", 1, /never closed: add a --- line/],
    ["a YAML syntax error", "---\nkind: fact\ntags: [a, b\n---\n", 3, /not valid YAML \(column \d+\)/],
    ["a duplicate key", "---\nkind: fact\nkind: rule\n---\n", 3, /not valid YAML.*unique/],
    ["a list for frontmatter", "---\n- kind\n---\n", 2, /is a list, not a mapping/],
    ["an unknown kind", "---\nid: 01JZ4TG8P0X3M9QK5RDWN7B2HC\nkind: banana\n---\n", 3, /kind is "banana".*use one of fact, decision, preference/],
    ["an unknown status", "---\nstatus: deleted\n---\n", 2, /use one of active, staged, archived, superseded/],
    ["a time that is not ISO-8601", "---\ncreated: yesterday\n---\n", 2, /created is "yesterday", not an ISO-8601 time: write it like 2026-12-01T09:31:02.118Z/],
    ["an impossible date", "---\nupdated: 2026-02-30\n---\n", 2, /not an ISO-8601 time/],
    ["a time before year 1", "---\nreview: 0000-12-31T00:00:00Z\n---\n", 2, /outside the times memd can hold/],
    ["a time as a number", "---\ncreated: 1733045462118\n---\n", 2, /the number 1733045462118, not an ISO-8601 time/],
    ["an empty created time", "---\ncreated:\n---\n", 2, /created is empty/],
    ["confidence above 1", "---\nconfidence: 1.5\n---\n", 2, /confidence must be between 0 and 1, got 1.5/],
    ["confidence as text", "---\nconfidence: high\n---\n", 2, /confidence is the text "high": it must be a number/],
    ["a fractional importance", "---\nimportance: 2.5\n---\n", 2, /importance must be a whole number from 1 to 5/],
    ["an importance of 6", "---\nimportance: 6\n---\n", 2, /importance must be a whole number from 1 to 5, got 6/],
    ["valence below -1", "---\nvalence: -2\n---\n", 2, /valence must be between -1 and 1/],
    ["intensity below 0", "---\nintensity: -0.1\n---\n", 2, /intensity must be between 0 and 1/],
    ["pinned as text", "---\npinned: maybe\n---\n", 2, /pinned is the text "maybe": it must be true or false/],
    ["an id that is not a ULID", "---\nid: m1\n---\n", 2, /id "m1" is not a ULID/],
    ["supersedes as a wikilink", "---\nsupersedes: \"[[old-note]]\"\n---\n", 2, /supersedes "\[\[old-note\]\]" is not a ULID/],
    ["a list entry that is a number", "---\ntags:\n  - db\n  - 2024\n---\n", 4, /tags entry 2 is the number 2024: each entry must be text \(put it in quotes\)/],
    ["tags as text", "---\ntags: db\n---\n", 2, /tags is the text "db": it must be a list/],
    ["a project that is a list", "---\nproject: [a]\n---\n", 2, /project is a list: it must be text/],
    ["history as text", "---\nhistory: lots\n---\n", 2, /history is the text "lots": it must be a list of events/],
    ["a history entry that is not a mapping", "---\nhistory:\n  - created\n---\n", 3, /history entry 1 is the text "created": write it as a mapping/],
    ["a history entry without a time", "---\nhistory:\n  - action: created\n---\n", 3, /history entry 1 has no at/],
    ["a history entry with a bad action", "---\nhistory:\n  - at: 2026-12-01\n    action: created\n  - at: 2026-12-02\n    action: deleted\n---\n", 6, /history entry 2: action is "deleted".*use one of created, updated/],
    ["a history entry without an action", "---\nhistory:\n  - at: 2026-12-01\n---\n", 3, /history entry 1: action is empty.*use one of created/],
    ["a history entry with a bad time", "---\nhistory:\n  - action: created\n    at: soon\n---\n", 4, /history entry 1: at is "soon", not an ISO-8601 time/],
    ["a history entry with a key twice", "---\nhistory:\n  - at: 2026-12-01\n    at: 2026-12-02\n---\n", 4, /unique, and at appears twice/],
    ["a YAML alias bomb", `---\n${aliasBomb(9)}---\nboom\n`, 3, /aliases \(\*name\) expand to far too many values/],
    ["lists nested 600 deep (the YAML parser holds them)", `---\nkind: fact\nk: ${"[".repeat(600)}${"]".repeat(600)}\n---\n`, 3, /nests lists and mappings more than 32 deep/],
    ["mappings indented 40 deep", `---\n${Array.from({ length: 40 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")} v\n---\n`, 34, /nests lists and mappings more than 32 deep/],
    ["lists nested past the YAML parser's stack", `---\nk: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n---\n`, 2, /not valid YAML/],
  ];

  it.each(errors)("reports %s at its line with a reason", (_name, text, lineNo, reason) => {
    const parsed = parseMemoryFile(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.line).toBe(lineNo);
    expect(parsed.reason).toMatch(reason);
  });

  it("reads a frontmatter with a few aliases, and gives no properties to keep from a bomb", () => {
    expect(parseMemoryFile("---\ntags: &t [db]\nconcepts: *t\n---\nx")).toMatchObject({ ok: true, memory: { tags: ["db"], concepts: ["db"] } });
    expect(foreignProperties(`---\n${aliasBomb(9)}---\nboom\n`)).toBeNull();
  });

  it("keeps a person's properties nested a few deep, and gives none to keep from a frontmatter nested past the limit", () => {
    expect(foreignProperties("---\nplugin:\n  panes:\n    - [left, right]\n---\nx")).toEqual({ plugin: { panes: [["left", "right"]] } });
    expect(foreignProperties(`---\nk: ${"[".repeat(40)}${"]".repeat(40)}\n---\nx`)).toBeNull();
  });

  it("reads a frontmatter of 20,000 keys, and finds a key given twice among them", () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}: v`).join("\n");
    expect(parseMemoryFile(`---\n${keys}\n---\nx`)).toMatchObject({ ok: true, memory: { content: "x" } });
    expect(parseMemoryFile(`---\n${keys}\nk7: again\n---\nx`)).toMatchObject({ ok: false, line: 20_002, reason: expect.stringMatching(/k7 appears twice/) });
  });

  it("counts lines from the file's start when it has CRLF line ends and a byte order mark", () => {
    expect(parseMemoryFile("\uFEFF---\r\nkind: fact\r\nimportance: 9\r\n---\r\n")).toMatchObject({ ok: false, line: 3 });
  });

  it("reports a wrong value in a golden file at the line a person sees it on", () => {
    const broken = GOLDEN.replace("importance: 3", "importance: 0");
    const lineNo = GOLDEN.split("\n").indexOf("importance: 3") + 1;
    expect(parseMemoryFile(broken)).toMatchObject({ ok: false, line: lineNo, reason: expect.stringMatching(/importance/) });
  });
});

describe("the YAML the renderer writes", () => {
  it("is read by a plain YAML parser as the same values", () => {
    const doc = parseDocument(frontmatterOf(GOLDEN));
    expect(isMap(doc.contents)).toBe(true);
    const history = doc.get("history");
    expect(isSeq(history)).toBe(true);
    expect(doc.toJS()).toMatchObject({ id: ID, created: "2026-12-01T09:31:02.118Z", tags: [], expires: null });
  });
});
