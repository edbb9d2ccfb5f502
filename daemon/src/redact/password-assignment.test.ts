import { describe, expect, it } from "vitest";
import { findPasswordAssignments } from "./password-assignment.js";

const values = (text: string) => findPasswordAssignments(text).map((f) => text.slice(f.start, f.end));

describe("findPasswordAssignments", () => {
  it("takes the value and keeps the key in env, INI, YAML, JSON and flag forms", () => {
    expect(values("DB_PASSWORD=h8C0G0Uo")).toEqual(["h8C0G0Uo"]);
    expect(values("password = s3cret-value\n")).toEqual(["s3cret-value"]);
    expect(values("  token: abc123\n")).toEqual(["abc123"]);
    expect(values('{"api_key": "k-88a1"}')).toEqual(["k-88a1"]);
    expect(values("mycli --api-key k-88a1 --verbose")).toEqual(["k-88a1"]);
    expect(values("mycli --password=k-88a1")).toEqual(["k-88a1"]);
  });

  it("reads JSON-escaped quotes inside raw JSON text", () => {
    expect(values(String.raw`{"content":"set \"password\": \"h8C0 G0Uo\" please"}`)).toEqual(["h8C0 G0Uo"]);
  });

  it("stops a bare value at connection-string, query-string and sentence punctuation", () => {
    expect(values("Password=Fz3kL9q;Encrypt=True")).toEqual(["Fz3kL9q"]);
    expect(values("/export?token=02fb371a&format=jsonl")).toEqual(["02fb371a"]);
    expect(values("set DB_PASSWORD=hunter2.")).toEqual(["hunter2"]);
  });

  it("takes a bare word after a colon only when it ends the line", () => {
    expect(values("password: swordfish\n")).toEqual(["swordfish"]);
    expect(values("password: swordfish # prod\n")).toEqual(["swordfish"]);
    expect(values("Password: must be long\nToken: see the runbook")).toEqual([]);
  });

  it("always takes a quoted value and a value with a digit", () => {
    expect(values('Token: "see the runbook"')).toEqual(["see the runbook"]);
    expect(values("Secret: v2x9 is the current one")).toEqual(["v2x9"]);
  });

  it("leaves type annotations, declarations and field copies alone", () => {
    expect(values("interface C { token: string; password?: string }")).toEqual([]);
    expect(values("const token = await fetchToken();")).toEqual([]);
    expect(values("const TOKEN = /[\\p{L}]+/gu;")).toEqual([]);
    expect(values("return { token: row.token, secret: process.env.JWT_SECRET };")).toEqual([]);
    expect(values("if (token == null) password = getPassword();")).toEqual([]);
  });

  it("still takes a string literal in a declaration", () => {
    expect(values('const apiKey = "k-88a1-live";')).toEqual(["k-88a1-live"]);
  });

  it("leaves placeholders and token counts alone", () => {
    expect(values("GH_TOKEN: ${{ secrets.GH_TOKEN }}\nDB_PASSWORD=$DB_PASSWORD\ntoken=<github-token>")).toEqual([]);
    expect(values('password: "********"\napi_key=your_api_key\nsecret: "[hidden]"')).toEqual([]);
    expect(values("MAX_OUTPUT_TOKEN=8192 CHARS_PER_TOKEN = 4")).toEqual([]);
  });

  it("does not take the next flag as a flag's value", () => {
    expect(values("mycli --token --verbose")).toEqual([]);
  });

  it("ignores a secret word that is not followed by a separator", () => {
    expect(values('FATAL: password authentication failed for user "app"')).toEqual([]);
  });
});

describe("findPasswordAssignments in prose", () => {
  it("takes a password stated in a sentence", () => {
    expect(values("the wifi password is Wv9kT3qZm6, ask Sam for the guest one")).toEqual(["Wv9kT3qZm6"]);
    expect(values("pw is Tz2qV7kWm4 for now")).toEqual(["Tz2qV7kWm4"]);
    expect(values("the passcode was: 'correct horse'")).toEqual(["correct horse"]);
  });

  it("leaves sentences about passwords alone", () => {
    expect(values("the password is required and is SHA-256 hashed")).toEqual([]);
    expect(values("the token is valid for 24h; the secret is stored in vault; pw is in 1Password")).toEqual([]);
    expect(values("the password is 12 characters long, the password is ~/.pgpass2")).toEqual([]);
  });
});

describe("findPasswordAssignments on environment variables", () => {
  it("takes the variables programs read passwords from, whatever their names end in", () => {
    expect(values("PGPASSWORD=Gv8tN3 psql; SSHPASS=Fy7kT2 sshpass -e ssh h; REDISCLI_AUTH=Lq3wZ8 redis-cli")).toEqual(["Gv8tN3", "Fy7kT2", "Lq3wZ8"]);
  });

  it("leaves askpass helpers and password files alone", () => {
    expect(values("SSH_ASKPASS=/usr/bin/ksshaskpass PGPASSFILE=~/.pgpass")).toEqual([]);
  });
});

describe("findPasswordAssignments under glued and ambiguous keys", () => {
  it("takes the value of a key whose secret word is glued to the word before it", () => {
    expect(values("mypassword=hunter2xyz DBPASSWORD=Tr0ub4dor%3x apitoken: 7f3kQ9zLw2Rx8vBn")).toEqual(["hunter2xyz", "Tr0ub4dor%3x", "7f3kQ9zLw2Rx8vBn"]);
  });

  it("takes a password under pwd or pass alone only when it looks like one, not a path or a count", () => {
    expect(values("pwd=Sup3rS3cretQ")).toEqual(["Sup3rS3cretQ"]);
    expect(values("pass: N0tMyD0g7x\n")).toEqual(["N0tMyD0g7x"]);
    expect(values("PWD=/home/maya/code pwd: ~/code pass: 22 bypass=cache compass: N45")).toEqual([]);
  });

  it("leaves glued pass flags and openssl's pass: form to the command-line forms", () => {
    expect(values("keytool -storepass Mz8wV3qKt6 openssl rsa -passin pass:Tk9mW4vQz2")).toEqual([]);
  });
});
