import { describe, expect, it } from "vitest";
import { findHighEntropyTokens, isHighEntropyToken, shannonEntropy, structuredShare } from "./high-entropy.js";

const RANDOM_40 = "lstkQ1YwJEdw9vWQfwvAAQwTuTyfZJiuQpnvm76L";

describe("shannonEntropy", () => {
  it("is 0 for one repeated character and log2(n) for n distinct ones", () => {
    expect(shannonEntropy("aaaaaaaa")).toBe(0);
    expect(shannonEntropy("abcd")).toBe(2);
    expect(shannonEntropy("")).toBe(0);
  });
});

describe("structuredShare", () => {
  it("is high for paths and identifiers and low for random tokens", () => {
    expect(structuredShare("src/components/UserProfile2Card/AvatarImage3Loader")).toBeGreaterThan(0.6);
    expect(structuredShare("getUserProfileByIdAndOrganization2")).toBeGreaterThan(0.6);
    expect(structuredShare(RANDOM_40)).toBeLessThan(0.5);
  });
});

describe("isHighEntropyToken", () => {
  it("accepts a random 40-character base62 token", () => {
    expect(isHighEntropyToken(RANDOM_40)).toBe(true);
  });

  it("needs 32 characters, not counting padding", () => {
    expect(isHighEntropyToken(RANDOM_40.slice(0, 32))).toBe(true);
    expect(isHighEntropyToken(RANDOM_40.slice(0, 31))).toBe(false);
    expect(isHighEntropyToken(`${RANDOM_40.slice(0, 31)}=`)).toBe(false);
  });

  it("rejects hex whatever its length: git SHAs, digests, UUIDs", () => {
    expect(isHighEntropyToken("9fceb02d0ae598e95dc970b74767f19372d61af8")).toBe(false);
    expect(isHighEntropyToken("E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855")).toBe(false);
    expect(isHighEntropyToken("ad7140d9-2cc2-4134-8bae-6b90ba3dede2-ad7140d9")).toBe(false);
  });

  it("rejects a token without digits or without one of the cases", () => {
    expect(isHighEntropyToken("lstkQYwJEdwvWQfwvAAQwTuTyfZJiuQpnvmLxx")).toBe(false);
    expect(isHighEntropyToken(RANDOM_40.toLowerCase())).toBe(false);
    expect(isHighEntropyToken(RANDOM_40.toUpperCase())).toBe(false);
  });

  it("rejects a repetitive token that has every class but little entropy", () => {
    expect(isHighEntropyToken("Ab1".repeat(14))).toBe(false);
  });

  it("rejects identifiers and paths that mix cases and digits", () => {
    for (const token of [
      "getUserProfileByIdAndOrganization2",
      "claude/projects/-Users-Maya-code-acme-api/ad7140d9-2cc2-4134-8bae-6b90ba3dede2",
      "memory/01HZX3K9Q7M2N4P6R8T0V1W3Y5/attachments",
      "refs/heads/feat/JIRA-1234-Add-OAuth2-Support",
      "io/vuln/SNYK-JS-MINIMIST-2429795",
    ]) {
      expect(isHighEntropyToken(token), token).toBe(false);
    }
  });

  it("rejects Subresource Integrity hashes", () => {
    expect(
      isHighEntropyToken("sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="),
    ).toBe(false);
  });

  it("rejects base64 of a sentence, unless the sentence holds a secret", () => {
    const sentence = Buffer.from("The quick brown fox jumps over the lazy dog").toString("base64");
    expect(isHighEntropyToken(sentence)).toBe(false);
    expect(isHighEntropyToken(sentence, (decoded) => decoded.includes("fox"))).toBe(true);
  });

  it("accepts base64 of random bytes", () => {
    expect(isHighEntropyToken("Xb8XLNEoUm+dy+KPVLHk9NtDBzfdMaDN5x4fSQy17i5=")).toBe(true);
  });
});

describe("findHighEntropyTokens", () => {
  const none = (text: string) => new Uint8Array(text.length);

  it("finds a token between words and keeps the words", () => {
    const text = `expected ${RANDOM_40}, got nothing`;
    expect(findHighEntropyTokens(text, none(text))).toEqual([{ start: 9, end: 49 }]);
  });

  it("leaves the host and path of a URL alone but scans its query string", () => {
    const text = `https://docs.example.com/d/${RANDOM_40}/edit?sig=${RANDOM_40}`;
    const found = findHighEntropyTokens(text, none(text));
    expect(found.map((f) => text.slice(f.start, f.end))).toEqual([RANDOM_40]);
    expect(found[0]?.start).toBe(text.lastIndexOf(RANDOM_40));
  });

  it("splits tokens at characters already taken", () => {
    const text = `${RANDOM_40}XXXX${RANDOM_40}`;
    const taken = none(text);
    taken.fill(1, 40, 44);
    expect(findHighEntropyTokens(text, taken)).toEqual([
      { start: 0, end: 40 },
      { start: 44, end: 84 },
    ]);
  });

  it("does not count separators at either end as part of the token", () => {
    const text = `cd /${RANDOM_40}/ && ls _${RANDOM_40}_`;
    const found = findHighEntropyTokens(text, none(text));
    expect(found.map((f) => text.slice(f.start, f.end))).toEqual([RANDOM_40, RANDOM_40]);
  });

  it("takes the whole run when words are glued to a random token", () => {
    const text = `name-${RANDOM_40}-suffix`;
    expect(findHighEntropyTokens(text, none(text))).toEqual([{ start: 0, end: text.length }]);
  });
});
