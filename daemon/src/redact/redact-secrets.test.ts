import { describe, expect, it } from "vitest";
import { redact, redactSecrets, SECRET_TYPES, type SecretFinding } from "./redact-secrets.js";
import { NON_SECRET_SAMPLES, SECRET_SAMPLES, type SecretSample } from "./secret-corpus.js";

/** Where each secret of a sample sits in its text, and the text with each replaced by its marker. */
function expectedRedaction(sample: SecretSample): { findings: SecretFinding[]; text: string } {
  const findings: SecretFinding[] = [];
  let text = "";
  let at = 0;
  for (const { type, value } of sample.secrets) {
    const start = sample.text.indexOf(value, at);
    if (start < 0) throw new Error(`corpus error: ${value} not in "${sample.name}"`);
    findings.push({ type, start, end: start + value.length });
    text += `${sample.text.slice(at, start)}[REDACTED:${type}]`;
    at = start + value.length;
  }
  return { findings, text: text + sample.text.slice(at) };
}

describe("redactSecrets on the secret corpus", () => {
  it.each(SECRET_SAMPLES.map((s) => [s.name, s] as const))("redacts %s and nothing around it", (_, sample) => {
    expect(redactSecrets(sample.text)).toEqual(expectedRedaction(sample));
  });

  it("holds at least 30 distinct secrets and every secret type", () => {
    const values = new Set(SECRET_SAMPLES.flatMap((s) => s.secrets.map((secret) => secret.value)));
    const types = new Set(SECRET_SAMPLES.flatMap((s) => s.secrets.map((secret) => secret.type)));
    expect(values.size).toBeGreaterThanOrEqual(30);
    expect([...types].sort()).toEqual([...SECRET_TYPES].sort());
  });

  it("leaves no secret value in the output, raw or JSON-escaped", () => {
    for (const sample of SECRET_SAMPLES) {
      const output = redact(sample.text);
      for (const { value } of sample.secrets) {
        expect(output).not.toContain(value);
        expect(output).not.toContain(JSON.stringify(value).slice(1, -1));
      }
    }
  });
});

describe("redactSecrets on the non-secret corpus", () => {
  it("has at least 20 samples", () => {
    expect(NON_SECRET_SAMPLES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(NON_SECRET_SAMPLES.map((s) => [s.name, s.text] as const))("leaves %s alone", (_, text) => {
    expect(redactSecrets(text)).toEqual({ text, findings: [] });
  });
});

describe("redactSecrets", () => {
  it("reports positions in the input, not in the redacted output", () => {
    const input = "a=1 GH_TOKEN=ghp_XDX2sIDNA8ShjAA1R3FXitxvfvGzWAQAHwke b=2 npm_UAnlWrKd79Uup735HJFatmxAduVWq7ro3jxb";
    const { findings } = redactSecrets(input);
    expect(findings.map((f) => input.slice(f.start, f.end))).toEqual([
      "ghp_XDX2sIDNA8ShjAA1R3FXitxvfvGzWAQAHwke",
      "npm_UAnlWrKd79Uup735HJFatmxAduVWq7ro3jxb",
    ]);
  });

  it("types a known format inside an assignment by its format, not as the assignment", () => {
    expect(redact("GH_TOKEN=ghp_XDX2sIDNA8ShjAA1R3FXitxvfvGzWAQAHwke")).toBe("GH_TOKEN=[REDACTED:github-token]");
    expect(redact("password=sk_test_wj8wAQOeZKQ3eTwUxRpbbirw")).toBe("password=[REDACTED:stripe-key]");
  });

  it("does not allowlist the word EXAMPLE", () => {
    expect(redact("AKIAIOSFODNN7EXAMPLE")).toBe("[REDACTED:aws-access-key]");
  });

  it("returns the empty string and text without secrets unchanged", () => {
    expect(redactSecrets("")).toEqual({ text: "", findings: [] });
    expect(redact("nothing to see here")).toBe("nothing to see here");
  });
});

describe("idempotence", () => {
  const everything = [...SECRET_SAMPLES.map((s) => s.text), ...NON_SECRET_SAMPLES.map((s) => s.text)];

  it("gives the same text when redacting twice as when redacting once", () => {
    for (const text of everything) {
      const once = redact(text);
      expect(redactSecrets(once)).toEqual({ text: once, findings: [] });
    }
  });

  it("is idempotent on the whole corpus joined into one text", () => {
    const once = redact(everything.join("\n"));
    expect(redact(once)).toBe(once);
  });

  it("never redacts a marker again, whatever surrounds it", () => {
    const text =
      "password=[REDACTED:password-assignment] token: [REDACTED:jwt] postgres://u:[REDACTED:url-password]@db " +
      "Authorization: Bearer [REDACTED:bearer-token] x[REDACTED:high-entropy]y";
    expect(redactSecrets(text)).toEqual({ text, findings: [] });
  });

  it("judges a token beside a redacted secret on its own, as the second pass will", () => {
    const text = "lstkQ1YwJEdw9vWQfwvAAQwTuTyfZJiuQpnvm76L-ghp_XDX2sIDNA8ShjAA1R3FXitxvfvGzWAQAHwke";
    const once = redact(text);
    expect(once).toBe("[REDACTED:high-entropy]-[REDACTED:github-token]");
    expect(redact(once)).toBe(once);
  });
});

describe("linear time", () => {
  const MB = 1 << 20;
  const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length));
  // Each input aims at one pattern's worst case: long runs its character classes accept, with
  // the character that would complete a match never arriving.
  const adversarial: [string, string][] = [
    ["one character", fill("a")],
    ["mixed classes", fill("aA1")],
    ["base64 alphabet", fill("aZ9+/")],
    ["BEGIN lines without END", fill("-----BEGIN RSA PRIVATE KEY-----\n")],
    ["URL schemes without passwords", fill("a://u:")],
    ["passwords without hosts", fill("a://u:p@")],
    ["assignments without values", fill("password=")],
    ["colons", fill("token:")],
    ["JWT headers without dots", fill("eyJ")],
    ["AWS prefixes", fill("AKIA")],
    ["open quotes", fill('password="')],
    ["escaped quotes", fill('\\"')],
    ["bearer schemes", fill("Bearer ")],
    ["flags", fill("--token ")],
    ["padding", fill("=")],
    ["hex", fill("0123456789abcdef")],
    ["markers", fill("[REDACTED:x]")],
    ["programs with options that take a password", fill("mysql -p sshpass -p curl -u ")],
    ["glued options without a command", fill("-pX")],
    ["open quotes after an option", fill("sshpass -p '")],
    ["triggers of a last argument", fill("htpasswd -b ")],
    ["commands without separators", fill("mysql;")],
    ["JSON line breaks after options", fill("redis-cli -a\\n")],
    ["user:password pairs without a colon", fill("curl -u admin ")],
    ["a sentence that names a password", fill("the password is ")],
    ["fullwidth assignments the fold turns into ASCII", fill("ｐａｓｓｗｏｒｄ＝")],
    ["zero-width spaces between letters", fill("A\u200B")],
    ["CJK text the fold leaves as it is", fill("日本語のテキスト")],
    ["AKIA glued in a run of capitals", fill("XAKIA")],
    ["glued JWT headers", fill("sessioneyJ")],
  ];

  it.each(adversarial)("redacts 1 MB of %s", (_, input) => {
    const { text } = redactSecrets(input);
    expect(typeof text).toBe("string");
    expect(text.length).toBeGreaterThan(0);
  }, 120_000);
});
