import { describe, expect, it } from "vitest";
import { renderSkill, skillDescription, type SkillSource } from "./render-skill.js";
import { isValidSkillName, MAX_SKILL_DESCRIPTION, parseSkillFile } from "./skill-file.js";

function source(overrides: Partial<SkillSource> = {}): SkillSource {
  return {
    id: "01JABCDEF",
    content: "Run make migrate-up before the integration tests. Then seed with make seed.",
    kind: "procedure",
    problem: "",
    solution: "",
    concepts: ["migrations", "postgres"],
    files: [],
    ...overrides,
  };
}

describe("skillDescription", () => {
  it("says what the procedure does (its first sentence) and when to use it (its concepts)", () => {
    expect(skillDescription(source())).toBe(
      "How to: Run make migrate-up before the integration tests. Use when doing this task or working on migrations, postgres.",
    );
  });

  it("frames a preference as the user's, with its main words as topics when it has no concepts", () => {
    expect(skillDescription(source({ kind: "preference", content: "Always use pnpm, never npm", concepts: [] }))).toBe(
      "The user's preference: Always use pnpm, never npm. Use when working on pnpm, npm, to follow it.",
    );
    expect(skillDescription(source({ kind: "preference", content: "Always do it so.", concepts: [] }))).toBe(
      "The user's preference: Always do it so. Use when the work touches it, to follow it.",
    );
  });

  it("stays one line without angle brackets and within 1024 characters", () => {
    const long = skillDescription(source({ content: `Use <b>Array<string></b>\nnow ${"word ".repeat(400)}`, concepts: [] }));
    expect(long).not.toMatch(/[<>\n]/);
    expect(long.length).toBeLessThanOrEqual(MAX_SKILL_DESCRIPTION);
  });
});

describe("renderSkill", () => {
  it("writes frontmatter that parses back to a valid name and the same description", () => {
    const memory = source({ content: 'Quote "this": a \\ backslash, a: colon and # hash.' });
    const description = skillDescription(memory);
    const parsed = parseSkillFile(renderSkill(memory, "run-migrations", description));
    expect(parsed?.fields.name).toBe("run-migrations");
    expect(isValidSkillName(parsed?.fields.name ?? "")).toBe(true);
    expect(parsed?.fields.description).toBe(description);
  });

  it("puts the content, problem, solution, files and the source memory in the body", () => {
    const text = renderSkill(source({ problem: "Tests failed on a fresh database.", solution: "Migrate first.", files: ["Makefile"] }), "run-migrations", "d");
    const body = parseSkillFile(text)?.body ?? "";
    expect(body).toContain("# run-migrations");
    expect(body).toContain("Run make migrate-up before the integration tests.");
    expect(body).toContain("## Problem\n\nTests failed on a fresh database.");
    expect(body).toContain("## Solution\n\nMigrate first.");
    expect(body).toContain("Files: `Makefile`");
    expect(body.endsWith("Graduated from memd memory 01JABCDEF.")).toBe(true);
  });

  it("leaves out empty problem and solution sections", () => {
    const text = renderSkill(source(), "run-migrations", "d");
    expect(text).not.toContain("## Problem");
    expect(text).not.toContain("## Solution");
  });
});
