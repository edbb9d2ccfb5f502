import { describe, expect, it } from "vitest";
import { CLAIM_TEXT_CHARS, readClaims } from "./claims.js";
import { judgeContradiction, LIKELY_CONTRADICTION } from "./judge.js";

/** The finding for a memory written after an older one, or null. */
function judge(older: string, newer: string) {
  return judgeContradiction(readClaims(newer), readClaims(older));
}

function likely(older: string, newer: string): boolean {
  return (judge(older, newer)?.score ?? 0) >= LIKELY_CONTRADICTION;
}

describe("judgeContradiction", () => {
  it("finds the issue's auth example: a new provider in the same slot", () => {
    const finding = judge("Auth is Clerk, not custom JWT.", "Auth moved to Auth0 last sprint.");
    expect(finding).toMatchObject({ subject: "auth provider", newer: "Auth0", older: "Clerk" });
    expect(finding?.score).toBeGreaterThanOrEqual(LIKELY_CONTRADICTION);
  });

  it("finds the issue's port example across db and Postgres", () => {
    const finding = judge("Postgres listens on 5432.", "The db port is 5433 now.");
    expect(finding).toMatchObject({ subject: "port", newer: "5433", older: "5432" });
    expect(finding?.score).toBeGreaterThanOrEqual(LIKELY_CONTRADICTION);
  });

  it("reads claims from a long memory's first CLAIM_TEXT_CHARS only: a session's later turns are not judged", () => {
    const filler = "user: tell me more about the trip.\nassistant: sure, here are a few ideas for the museums.\n".repeat(40);
    expect(filler.length).toBeGreaterThan(CLAIM_TEXT_CHARS);
    expect(likely("Postgres listens on 5432.", `The db port is 5433 now.\n${filler}`)).toBe(true);
    expect(likely("Postgres listens on 5432.", `${filler}The db port is 5433 now.`)).toBe(false);
  });

  it("finds a thing said to be gone that the other memory uses", () => {
    expect(likely("Redis is used as the session store.", "Sessions are no longer kept in Redis; they live in Postgres.")).toBe(true);
    expect(likely("Lint runs as a pre-commit hook with husky.", "We removed husky; lint only runs in CI.")).toBe(true);
  });

  it("finds a new version of the same thing", () => {
    expect(likely("The API server runs on Node 18.", "api-server is on Node 20 since the upgrade.")).toBe(true);
  });

  it("finds a different setting value", () => {
    expect(likely("In production WORKER_CONCURRENCY=5.", "Production runs the worker with WORKER_CONCURRENCY=20.")).toBe(true);
  });

  it("finds a different count of the same thing in personal memories", () => {
    expect(likely("I currently have three bikes: a road bike, a mountain bike and a commuter bike.", "I now have four bikes: road, mountain, commuter and hybrid.")).toBe(true);
  });

  it("leaves alone the same value said differently", () => {
    expect(judge("Postgres listens on 5432.", "DATABASE_URL points at localhost:5432 for local development.")).toBeNull();
    expect(judge("We run Node 20 everywhere.", "CI's setup-node step installs Node 20.x.")).toBeNull();
  });

  it("leaves alone two environments, platforms or languages", () => {
    expect(likely("Production runs the worker with WORKER_CONCURRENCY=20.", "Staging runs the worker with WORKER_CONCURRENCY=2.")).toBe(false);
    expect(likely("Format Python with black.", "Format TypeScript with Prettier.")).toBe(false);
  });

  it("leaves alone two services of the same kind", () => {
    expect(likely("Postgres listens on 5432 in docker-compose.", "Redis listens on 6379 in docker-compose.")).toBe(false);
    expect(likely("JWT access tokens live for 1 hour.", "Refresh tokens live for 30 days.")).toBe(false);
    expect(likely("Rate limit on /api/login is 5 requests per minute.", "/api/search is rate limited to 60 requests per minute.")).toBe(false);
  });

  it("leaves alone a memory that names both values as holding", () => {
    expect(likely("Transactional email goes through Postmark.", "Marketing emails are sent from Mailchimp, separately from Postmark.")).toBe(false);
  });

  it("leaves alone an exception to a default", () => {
    expect(likely("HTTP client timeout is 10s by default.", "Uploads override the HTTP client timeout to 120s.")).toBe(false);
  });

  it("leaves alone a local denial about another subject", () => {
    expect(likely("Logs are shipped to Datadog.", "Frontend errors are reported to Sentry, not Datadog.")).toBe(false);
  });

  it("compares a rate only with a rate of the same period", () => {
    expect(likely("I'm on episode 10 of the Science series.", "I watch 1 Science series episode daily.")).toBe(false);
    expect(likely("I do yoga twice a week.", "I've increased yoga to three times a week.")).toBe(true);
  });

  it("does not count an HTTP status as a number of requests", () => {
    expect(likely("Rate limit on /api/login is 5 requests per minute.", "When the limit is hit, /api/login answers 429.")).toBe(false);
  });

  it("reads a word like 'Render' as a tool only where its slot is spoken of", () => {
    expect(readClaims("Render the page on the server.").clauses[0]?.mentions.some((m) => m.value.type === "choice")).toBe(false);
    expect(likely("We deploy the API to Heroku.", "The API left Heroku; it runs on Render.")).toBe(true);
  });
});
