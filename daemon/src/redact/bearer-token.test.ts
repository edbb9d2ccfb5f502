import { describe, expect, it } from "vitest";
import { findBearerTokens } from "./bearer-token.js";

const credentials = (text: string) => findBearerTokens(text).map((f) => text.slice(f.start, f.end));

describe("findBearerTokens", () => {
  it("takes the credential of an Authorization header and keeps name and scheme", () => {
    expect(credentials("Authorization: Bearer 0f9a8b7c6d5e4f3a")).toEqual(["0f9a8b7c6d5e4f3a"]);
    expect(credentials("proxy-authorization: Basic ZGVwbG95OnMzY3JldA==")).toEqual(["ZGVwbG95OnMzY3JldA=="]);
    expect(credentials('{"Authorization":"token 0f9a8b7c6d5e4f3a"}')).toEqual(["0f9a8b7c6d5e4f3a"]);
  });

  it("takes a scheme-less header credential", () => {
    expect(credentials("authorization=0f9a8b7c6d5e4f3a")).toEqual(["0f9a8b7c6d5e4f3a"]);
  });

  it("leaves a header whose credential is a variable alone", () => {
    expect(credentials('curl -H "Authorization: Bearer $TOKEN"')).toEqual([]);
    expect(credentials("Authorization: Negotiate ${TICKET}")).toEqual([]);
  });

  it("takes a bare Bearer credential only when it is long and mixes letters and digits", () => {
    expect(credentials("rejected Bearer tok_o7RrU5YKyyQHxhDo2X93")).toEqual(["tok_o7RrU5YKyyQHxhDo2X93"]);
    expect(credentials("send a bearer token or a Bearer authenticationHeader")).toEqual([]);
  });
});
