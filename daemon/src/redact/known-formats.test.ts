import { describe, expect, it } from "vitest";
import { awsAccessKey, awsSecretKeyPaired, githubToken, jwt, openaiKey, stripeKey } from "./known-formats.js";
import { redact } from "./redact-secrets.js";

const matches = (detect: (text: string) => { start: number; end: number }[], text: string) =>
  detect(text).map((f) => text.slice(f.start, f.end));

describe("known formats", () => {
  it("takes a prefixed token glued to a word when what follows the prefix looks generated", () => {
    expect(matches(githubToken, "myghp_XDX2sIDNA8ShjAA1R3FXitxvfvGzWAQAHwke")).toEqual(["ghp_XDX2sIDNA8ShjAA1R3FXitxvfvGzWAQAHwke"]);
    expect(matches(githubToken, "laughs_aboutTheWholeThingAndMoreOfIt")).toEqual([]);
    expect(matches(stripeKey, "desk_test_integrationSuite01")).toEqual([]);
    expect(matches(awsAccessKey, "(AKIAIOSFODNN7EXAMPLE)")).toEqual(["AKIAIOSFODNN7EXAMPLE"]);
    expect(matches(awsAccessKey, "awsAKIAIOSFODNN7EXAMPLEend")).toEqual(["AKIAIOSFODNN7EXAMPLE"]);
  });

  it("needs the end of a run of capitals and digits after an AWS key id, and a digit in it when glued, unless it is an AKIA id between lower-case letters", () => {
    expect(matches(awsAccessKey, "AKIAIOSFODNN7EXAMPLEXYZ")).toEqual([]);
    expect(matches(awsAccessKey, "getASIAPACIFICSALESTEAMend")).toEqual([]);
    expect(matches(awsAccessKey, "awsAKIAQWERTYUIOPZXCVBNend")).toEqual(["AKIAQWERTYUIOPZXCVBN"]);
    expect(matches(awsAccessKey, "7AKIAQWERTYUIOPZXCVBN")).toEqual([]);
  });

  it("takes a JWT glued to a cookie name, keeping the name", () => {
    const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtYXlhIn0.s1gN4tUr3xQ9vB7kL2mZ";
    expect(matches(jwt, `session${token}`)).toEqual([token]);
  });

  it("does not take kebab-case words after sk- for OpenAI keys", () => {
    expect(matches(openaiKey, "the sk-learn-compatible-estimator-wrapper module")).toEqual([]);
  });

  it("types sk-ant- keys as Anthropic, not OpenAI", () => {
    expect(matches(openaiKey, "sk-ant-api03-ZytcHJZu5f1y4oLhoAGnSY4aOxuWabZ1My2P")).toEqual([]);
    expect(redact("sk-ant-api03-ZytcHJZu5f1y4oLhoAGnSY4aOxuWabZ1My2P")).toBe("[REDACTED:anthropic-key]");
  });

  it("leaves Stripe publishable keys, which are public, to the other rules", () => {
    expect(matches(stripeKey, "pk_live_sWtk0uYgRw8Iwowy41zaU1Pc")).toEqual([]);
  });

  it("needs both JWT segments to start with eyJ", () => {
    expect(matches(jwt, "eyJhbGciOiJIUzI1NiJ9.notjsonatall.c2ln")).toEqual([]);
  });

  it("pairs an AWS secret with its access key only when it mixes cases", () => {
    expect(matches(awsSecretKeyPaired, "AKIA6LNCZKYWHJPMCCUH 9fceb02d0ae598e95dc970b74767f19372d61af8")).toEqual([]);
    expect(redact("AKIA6LNCZKYWHJPMCCUH 9fceb02d0ae598e95dc970b74767f19372d61af8")).toBe(
      "[REDACTED:aws-access-key] 9fceb02d0ae598e95dc970b74767f19372d61af8",
    );
  });
});
