import { describe, expect, it } from "vitest";
import { findPrivateKeys } from "./private-key.js";

const blocks = (text: string) => findPrivateKeys(text).map((f) => text.slice(f.start, f.end));
const BODY = "MIIEpAIBAAKCAQEApTyGJMuHbEL31IeL2HPcHyGcFRl1SPnXNYvMIHa/2o76umfX";

describe("findPrivateKeys", () => {
  it("takes a block from its BEGIN line through its END line", () => {
    const block = `-----BEGIN RSA PRIVATE KEY-----\n${BODY}\n-----END RSA PRIVATE KEY-----`;
    expect(blocks(`key:\n${block}\ndone`)).toEqual([block]);
  });

  it("finds each of several blocks separately", () => {
    const a = `-----BEGIN EC PRIVATE KEY-----\n${BODY}\n-----END EC PRIVATE KEY-----`;
    const b = `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${BODY}\n-----END ENCRYPTED PRIVATE KEY-----`;
    expect(blocks(`${a}\nand\n${b}`)).toEqual([a, b]);
  });

  it("takes a truncated block up to the end of its body", () => {
    const block = `-----BEGIN PRIVATE KEY-----\n${BODY}\n${BODY}`;
    expect(blocks(`${block}\n\nwhat is this?`)).toEqual([block]);
  });

  it("works on JSON-escaped text", () => {
    const block = String.raw`-----BEGIN OPENSSH PRIVATE KEY-----\n${BODY}\n-----END OPENSSH PRIVATE KEY-----`;
    expect(blocks(`{"k":"${block}\\n"}`)).toEqual([block]);
  });

  it("ignores certificates and public keys, which are meant to be shared", () => {
    const text = `-----BEGIN CERTIFICATE-----\n${BODY}\n-----END CERTIFICATE-----\n-----BEGIN PUBLIC KEY-----\n${BODY}\n-----END PUBLIC KEY-----`;
    expect(blocks(text)).toEqual([]);
  });
});
