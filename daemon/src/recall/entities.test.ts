import { describe, expect, it } from "vitest";
import { type Entity, extractEntities, queryEntityKeys } from "./entities.js";

const keys = (entities: readonly Entity[]) => entities.map((e) => e.key);
const typeOf = (entities: readonly Entity[], key: string) => entities.find((e) => e.key === key)?.type;

describe("extractEntities", () => {
  it("keeps concepts as given, lower-cased, before anything found in the text", () => {
    const entities = extractEntities({ content: "Uses Stripe.", concepts: ["ORA-01555", "Backfill"] });
    expect(entities.slice(0, 2)).toEqual([
      { key: "ora-01555", type: "concept" },
      { key: "backfill", type: "concept" },
    ]);
  });

  it("adds each file path and its base name, from the files field and from the text", () => {
    const entities = extractEntities({
      content: "GPX export builds XML in src/features/recording/gpx.ts and shares it with expo-sharing.",
      files: ["apps/mobile/src/features/recording/gpx.ts", "internal/jobs/"],
    });
    expect(keys(entities)).toEqual(
      expect.arrayContaining(["apps/mobile/src/features/recording/gpx.ts", "gpx.ts", "src/features/recording/gpx.ts", "internal/jobs"]),
    );
    expect(typeOf(entities, "gpx.ts")).toBe("file");
    expect(keys(entities)).not.toContain("jobs");
  });

  it("finds paths written relative to home or the working directory", () => {
    const entities = extractEntities("Resolution: flags > ./relay.config.ts > ~/.config/relay/config.json.");
    expect(keys(entities)).toEqual(expect.arrayContaining(["relay.config.ts", "~/.config/relay/config.json", "config.json"]));
  });

  it("does not take slash-separated words or CIDR ranges for paths", () => {
    const entities = extractEntities("Plan shows add/change/destroy counts in km/m for the VPC 10.0.0.0/16, read/write.");
    expect(entities.filter((e) => e.type === "file")).toEqual([]);
  });

  it("recognizes error codes of several families", () => {
    const entities = extractEntities(
      "Stripe calls failed with ECONNRESET; later ORA-00060 and TS2345, SQLSTATE 40P01, ERR_REQUIRE_ESM and SQLITE_BUSY.",
    );
    for (const key of ["econnreset", "ora-00060", "ts2345", "40p01", "err_require_esm", "sqlite_busy"]) {
      expect(typeOf(entities, key), key).toBe("error");
    }
  });

  it("reads HTTP statuses and exit codes only where the context says they are", () => {
    const entities = extractEntities("429 responses include Retry-After; env push hit a 503; pods exit code 137; a 400-credit cap.");
    expect(keys(entities)).toEqual(expect.arrayContaining(["http-429", "http-503", "exit-137"]));
    expect(keys(entities)).not.toContain("http-400");
  });

  it("takes exception class names for errors", () => {
    const entities = extractEntities("Error acquiring the state lock: ConditionalCheckFailedException");
    expect(entities).toEqual([{ key: "conditionalcheckfailedexception", type: "error" }]);
  });

  it("finds ticket ids but not standards that share their shape", () => {
    const entities = extractEntities("Revenue agreed with Finance (DATA-350), fixed in PAY-1423; hashed with SHA-256 over UTF-8, DNS-01.");
    expect(entities.filter((e) => e.type === "ticket").map((e) => e.key)).toEqual(["data-350", "pay-1423"]);
  });

  it("reads backticked commands up to their flags, with their cli-and-subcommand prefix", () => {
    const entities = extractEntities("Run dbt locally with `uv run dbt build --select state:modified+ --defer` then `make fetch-manifest`.");
    expect(entities.filter((e) => e.type === "command").map((e) => e.key)).toEqual([
      "uv run dbt build", "uv run", "make fetch-manifest",
    ]);
  });

  it("reads commands of known CLIs in prose only with a real subcommand", () => {
    const commands = (text: string) => extractEntities(text).filter((e) => e.type === "command").map((e) => e.key);
    expect(commands("Never run terraform apply locally; make migrate-up blew up")).toEqual(["terraform apply", "make migrate-up"]);
    expect(commands("make sure this terraform change is reviewed, go ahead")).toEqual([]);
  });

  it("finds scoped packages, versioned packages and ecosystem-named packages", () => {
    const entities = extractEntities(
      "Sign-in uses Clerk (@clerk/clerk-expo@1.2.0); the packageManager field pins pnpm@9.1.0; analytics via posthog-react-native.",
    );
    expect(entities.filter((e) => e.type === "package").map((e) => e.key)).toEqual([
      "@clerk/clerk-expo", "pnpm", "posthog-react-native",
    ]);
  });

  it("does not take hyphenated English words for packages", () => {
    const entities = extractEntities("User is on-call every 4th week; files are kebab-case and tests are table-driven.");
    expect(entities.filter((e) => e.type === "package")).toEqual([]);
  });

  it("tells environment variables from other upper-case constants", () => {
    const entities = extractEntities(
      "Signed with LEDGER_JWT_SECRET; set TESTCONTAINERS_RYUK_DISABLED=true; chunk GL_BALANCES by PERIOD_NAME.",
    );
    expect(typeOf(entities, "ledger_jwt_secret")).toBe("env");
    expect(typeOf(entities, "testcontainers_ryuk_disabled")).toBe("env");
    expect(typeOf(entities, "gl_balances")).toBe("identifier");
  });

  it("finds code identifiers: snake_case, camelCase and member expressions", () => {
    const entities = extractEntities(
      "Rows go to ledger_entries; the cache is Clerk's tokenCache; use offlineManager.createPack and t.Run subtests, e.g. here.",
    );
    expect(keys(entities)).toEqual(expect.arrayContaining(["ledger_entries", "tokencache", "offlinemanager.createpack", "t.run"]));
    expect(keys(entities)).not.toContain("e.g");
  });

  it("finds proper names in mid-sentence but skips ordinary capitalized sentence starts", () => {
    const entities = extractEntities(
      "Background jobs use riverqueue/river on Postgres instead of Redis. Payouts run nightly with PagerDuty alerts.",
    );
    expect(entities.filter((e) => e.type === "name").map((e) => e.key)).toEqual(["postgres", "redis", "pagerduty"]);
  });

  it("accepts a sentence-initial name only when the text also uses it mid-sentence", () => {
    const entities = extractEntities("Stripe is the primary PSP. Adyen stays only because Stripe's SEPA mandates did not fit.");
    expect(keys(entities)).toEqual(["stripe", "psp", "sepa"]);
  });

  it("keeps multi-word product names whole and names their distinctive head", () => {
    const entities = extractEntities(
      "Moved off Terraform Cloud; secrets live in AWS Secrets Manager. Data checks use Great Expectations.",
    );
    expect(keys(entities)).toEqual(
      expect.arrayContaining(["terraform cloud", "terraform", "aws secrets manager", "aws", "secrets manager", "great expectations"]),
    );
    expect(keys(entities)).not.toContain("secrets");
    expect(keys(entities)).not.toContain("great");
  });

  it("leaves out generic acronyms, HTTP verbs and SQL keywords as names", () => {
    const entities = extractEntities("The API takes a POST from the CLI, then SELECT ... FOR UPDATE SKIP LOCKED on the row.");
    expect(keys(entities)).toEqual(["for update skip locked"]);
  });

  it("finds nothing in plain prose", () => {
    expect(extractEntities("Before saying a task is done, run the lint and tests and report the actual result.")).toEqual([]);
  });

  it("deduplicates by key, keeping the first type found", () => {
    const entities = extractEntities({ content: "ECONNRESET again: ECONNRESET.", concepts: ["ECONNRESET"] });
    expect(entities).toEqual([{ key: "econnreset", type: "concept" }]);
  });

  it("caps the list, keeping the given fields first", () => {
    const concepts = Array.from({ length: 40 }, (_, i) => `concept-${i}`);
    const entities = extractEntities({ content: "Uses Stripe.", concepts }, 10);
    expect(entities).toHaveLength(10);
    expect(entities[9]).toEqual({ key: "concept-9", type: "concept" });
  });

  it("gives the same list for the same input", () => {
    const memory = {
      content: "Karpenter consolidation evicted the ledgerd-migrate Job pod mid-migration.",
      solution: 'Set the pod annotation karpenter.sh/do-not-disrupt: "true" through argocd/apps/ledgerd/values-prod.yaml.',
      concepts: ["karpenter", "jobs"],
    };
    expect(extractEntities(memory)).toEqual(extractEntities({ ...memory }));
  });
});

describe("queryEntityKeys", () => {
  it("adds lower-case word n-grams so that names typed in lower case can match stored keys", () => {
    const lookup = queryEntityKeys("ECONNRESET from the stripe client in prod logs");
    expect(lookup).toEqual(expect.arrayContaining(["econnreset", "stripe", "stripe client"]));
  });

  it("skips n-grams that start or end on a stopword", () => {
    const lookup = queryEntityKeys("what did we decide about analytics a few weeks ago?");
    expect(lookup).toContain("analytics");
    expect(lookup.filter((k) => /^(?:what|about|a|ago)\b|\b(?:about|a|ago)$/.test(k))).toEqual([]);
  });

  it("keeps a ticket id typed in lower case whole", () => {
    expect(queryEntityKeys("pay-1423 looks like it's back")).toContain("pay-1423");
  });
});
