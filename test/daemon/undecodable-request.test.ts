import zlib from "node:zlib";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SaveRequestSchema } from "../../gen/memd/v1/memory_service_pb.js";
import { removeDaemon, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { answerCode } from "../hostile/answer-code.js";
import { envelope } from "../hostile/hostile-request.js";
import { type Exchange, h1Request, h2Connect } from "../hostile/http-exchange.js";

let daemon: TestDaemon;

beforeAll(async () => {
  daemon = await spawnDaemon();
});
afterAll(() => removeDaemon(daemon));

// A length-delimited field 1 that promises 5 bytes and holds 2.
const TRUNCATED_MESSAGE = Buffer.from([0x0a, 0x05, 0x61, 0x62]);

function messageOf(answer: Exchange): string {
  const text = answer.body.toString("utf8");
  return decodeURIComponent(String(answer.trailers["grpc-message"] ?? answer.headers["grpc-message"] ?? "")) + text;
}

async function expectInvalid(answer: Exchange, message: RegExp): Promise<void> {
  expect(answerCode(answer)).toBe("invalid_argument");
  expect(messageOf(answer)).toMatch(message);
  expect((await daemon.clients.admin.health({})).health?.version).not.toBe("");
}

describe("a request connect cannot decode", () => {
  it.each([
    ["Export", "a message that does not parse", envelope(0, TRUNCATED_MESSAGE), /not a valid memd\.v1\.ExportRequest/],
    ["Reindex", "a message that does not parse", envelope(0, TRUNCATED_MESSAGE), /not a valid memd\.v1\.ReindexRequest/],
    ["Export", "the compressed flag without an encoding", envelope(1, Buffer.from([0x0a, 0x00])), /compressed envelope/],
    ["Reindex", "the compressed flag without an encoding", envelope(1, Buffer.alloc(0)), /compressed envelope/],
  ])("gets invalid_argument for a %s stream with %s", async (rpc, _what, body, message) => {
    const answer = await h1Request(daemon, {
      path: `/memd.v1.AdminService/${rpc}`,
      headers: { "content-type": "application/connect+proto" },
      body,
    });
    await expectInvalid(answer, message);
  });

  it("gets invalid_argument for a truncated gzip body", async () => {
    const gzipped = zlib.gzipSync(JSON.stringify({ query: "truncated" }));
    const answer = await h1Request(daemon, {
      path: "/memd.v1.MemoryService/Search",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: gzipped.subarray(0, gzipped.length - 6),
    });
    await expectInvalid(answer, /not valid gzip/);
  });

  it("gets invalid_argument for a truncated gzip envelope in a stream", async () => {
    const gzipped = zlib.gzipSync(Buffer.from([0x0a, 0x01, 0x61]));
    const answer = await h1Request(daemon, {
      path: "/memd.v1.AdminService/Export",
      headers: { "content-type": "application/connect+proto", "connect-content-encoding": "gzip" },
      body: envelope(1, gzipped.subarray(0, 12)),
    });
    await expectInvalid(answer, /not valid gzip/);
  });

  it.each([
    ["base64 that is not base64", "encoding=json&base64=1&message=!!!", /memd\.v1\.SearchRequest/],
    ["a binary message that does not parse", "encoding=proto&message=%0a%05ab", /memd\.v1\.SearchRequest: parse binary/],
  ])("gets invalid_argument for a GET Search with %s", async (_what, query, message) => {
    const answer = await h1Request(daemon, { method: "GET", path: `/memd.v1.MemoryService/Search?connect=v1&${query}` });
    await expectInvalid(answer, message);
  });

  it("gets grpc-status invalid_argument for a gRPC unary call whose message does not parse", async () => {
    const h2 = h2Connect(daemon);
    try {
      const answer = await h2.request({
        path: "/memd.v1.MemoryService/Save",
        headers: { "content-type": "application/grpc", te: "trailers" },
        body: envelope(0, TRUNCATED_MESSAGE),
      });
      await expectInvalid(answer, /not a valid memd\.v1\.SaveRequest/);
    } finally {
      h2.close();
    }
  });

  it("still answers a well-formed binary Save", async () => {
    const answer = await h1Request(daemon, {
      path: "/memd.v1.MemoryService/Save",
      headers: { "content-type": "application/proto" },
      body: toBinary(SaveRequestSchema, create(SaveRequestSchema, { content: "decodes fine", project: "decode" })),
    });
    expect(answerCode(answer)).toBe("ok");
  });
});
