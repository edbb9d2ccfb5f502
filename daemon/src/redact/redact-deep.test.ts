import { describe, expect, it } from "vitest";
import { redactDeep } from "./redact-deep.js";

const GH = "ghp_XDX2sIDNA8ShjAA1R3FXitxvfvGzWAQAHwke";

describe("redactDeep", () => {
  it("redacts strings at any depth of objects and arrays", () => {
    const row = { msg: `pushed with ${GH}`, tags: ["ci", { note: `GH_TOKEN=${GH}` }], n: 3, ok: true, none: null };
    expect(redactDeep(row)).toEqual({
      msg: "pushed with [REDACTED:github-token]",
      tags: ["ci", { note: "GH_TOKEN=[REDACTED:github-token]" }],
      n: 3,
      ok: true,
      none: null,
    });
  });

  it("replaces the whole string under a key that names a secret", () => {
    expect(redactDeep({ password: "hunter2", apiKey: "abc", user: "maya" })).toEqual({
      password: "[REDACTED:password-assignment]",
      apiKey: "[REDACTED:password-assignment]",
      user: "maya",
    });
  });

  it("keeps the specific type when a secret-named value is one recognised secret", () => {
    expect(redactDeep({ GH_TOKEN: GH })).toEqual({ GH_TOKEN: "[REDACTED:github-token]" });
  });

  it("redacts the credential of a logged authorization header and keeps its scheme", () => {
    expect(redactDeep({ headers: { authorization: "Bearer 19e24d2d0304fe2f599a73c7", host: "memd" } })).toEqual({
      headers: { authorization: "Bearer [REDACTED:bearer-token]", host: "memd" },
    });
  });

  it("keeps empty values and references under secret-named keys", () => {
    expect(redactDeep({ token: "", password: "${DB_PASSWORD}", max_tokens: "4096" })).toEqual({
      token: "",
      password: "${DB_PASSWORD}",
      max_tokens: "4096",
    });
  });

  it("does not mutate its input", () => {
    const input = { a: [`key ${GH}`], b: { password: "hunter2" } };
    const before = structuredClone(input);
    redactDeep(input);
    expect(input).toEqual(before);
  });

  it("returns class instances as they are", () => {
    const when = new Date(0);
    const result = redactDeep({ when }) as { when: Date };
    expect(result.when).toBe(when);
  });

  it("keeps cycles as cycles", () => {
    const input: Record<string, unknown> = { secret: "hunter2" };
    input["self"] = input;
    const result = redactDeep(input) as Record<string, unknown>;
    expect(result["self"]).toBe(result);
    expect(result["secret"]).toBe("[REDACTED:password-assignment]");
  });

  it("keeps an own __proto__ key as a key", () => {
    const input = JSON.parse(`{"__proto__": {"token": "hunter2"}}`) as object;
    const result = redactDeep(input) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it("is idempotent", () => {
    const once = redactDeep({ password: "hunter2", log: `GH_TOKEN=${GH}` });
    expect(redactDeep(once)).toEqual(once);
  });
});
