import zlib from "node:zlib";
import fc from "fast-check";

/** Bytes for a raw connection: HTTP/1.0 and HTTP/1.1 requests no client would send, or h2c frames after the preface. */
export interface RawGarbage {
  kind: "http/1.0" | "http/1.1" | "h2c";
  bytes: Uint8Array;
}

const H2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

const METHODS = ["POST", "GET", "PUT", "OPTIONS", "HEAD", "DELETE", "PRI", "BREW", "post", "", "GET /x"];
const VERSIONS = ["HTTP/1.1", "HTTP/1.0", "HTTP/1.1", "HTTP/0.9", "HTTP/2.0", "HTTP/9.9", "HTTP/1.1x", "", "http/1.1"];
const HOSTS = [null, "", "localhost", "127.0.0.1", "[::1]:1", "::1", "evil.example", "127.0.0.1 evil.com", "localhost:99999", "a".repeat(10_000), "local\u0000host"];
const CONTENT_TYPES = [
  null, "application/json", "application/proto", "application/connect+json", "application/connect+proto", "application/grpc", "application/grpc+json",
  "application/grpc-web", "application/grpc-web-text", "text/plain", "application/json; charset=latin1", "application/json;;", "*/*", "",
];
const ENCODINGS = [null, "gzip", "br", "deflate", "zstd", "identity", "gzip, gzip", "GZIP", "x"];
const LENGTHS = [null, "0", "-1", "abc", "99999999999999999999", "1, 2", "5"];

function headerLines(token: string): fc.Arbitrary<string[]> {
  const optional = (name: string, values: (string | null)[]) => fc.constantFrom(...values).map((v) => (v === null ? [] : [`${name}: ${v}`]));
  return fc
    .tuple(
      optional("Host", HOSTS),
      optional("Content-Type", CONTENT_TYPES),
      optional("Content-Encoding", ENCODINGS),
      optional("Connect-Content-Encoding", ENCODINGS),
      optional("Content-Length", LENGTHS),
      optional("Transfer-Encoding", [null, null, "chunked", "chunked, gzip", "identity"]),
      optional("Connect-Protocol-Version", [null, "1", "2", "x"]),
      optional("Connect-Timeout-Ms", [null, "1", "-1", "abc", "99999999999"]),
      optional("Grpc-Timeout", [null, "1S", "99999999999H", "x"]),
      optional("Authorization", [null, `Bearer ${token}`, `Bearer ${token}`, "Bearer", "Basic x", `Bearer ${token}x`]),
      optional("Connection", [null, "close", "close", "keep-alive", "upgrade"]),
      optional("Upgrade", [null, null, "h2c", "websocket"]),
      fc.array(fc.constantFrom("X-Junk: \u0001", "no colon here", " folded", `X-Long: ${"v".repeat(20_000)}`, ": empty name", "X-A: 1"), { maxLength: 3 }),
    )
    .map((parts) => parts.flat());
}

function bodies(): fc.Arbitrary<Uint8Array> {
  const gz = zlib.gzipSync('{"query":"raw"}');
  return fc.oneof(
    fc.constant(new Uint8Array(0)),
    fc.uint8Array({ maxLength: 512 }),
    fc.constantFrom("{}", '{"query":"x"}', "{", "\u0000", "0\r\n\r\n", "5\r\nab\r\n", "zz\r\n").map((t) => Uint8Array.from(Buffer.from(t))),
    fc.tuple(fc.integer({ min: 0, max: 255 }), fc.nat({ max: 2 ** 32 - 1 }), fc.uint8Array({ maxLength: 64 })).map(([flags, length, data]) => {
      const head = Buffer.alloc(5);
      head[0] = flags;
      head.writeUInt32BE(length, 1);
      return Uint8Array.from(Buffer.concat([head, data]));
    }),
    fc.nat({ max: gz.length - 1 }).map((cut) => Uint8Array.from(gz.subarray(0, cut))),
  );
}

/** An HTTP/1.x request made wrong in its request line, headers, framing or body. */
export function rawHttp1(paths: string[], token: string): fc.Arbitrary<RawGarbage> {
  return fc
    .tuple(fc.constantFrom(...METHODS), fc.constantFrom(...paths, "/", "*", "/%00", "/../../etc", `/${"a".repeat(9_000)}`, "/memd.v1.MemoryService/Save?connect=v1&x=%zz"), fc.constantFrom(...VERSIONS), headerLines(token), bodies(), fc.constantFrom("\r\n", "\r\n", "\n"))
    .map(([method, path, version, headers, body, eol]) => ({
      kind: version === "HTTP/1.0" ? ("http/1.0" as const) : ("http/1.1" as const),
      bytes: Uint8Array.from(Buffer.concat([Buffer.from(`${method} ${path} ${version}${eol}${headers.join(eol)}${eol}${eol}`), Buffer.from(body)])),
    }));
}

/** A frame header: 24-bit length, type, flags, 31-bit stream id. */
function h2Frame(type: number, flags: number, stream: number, payload: Uint8Array, lengthOverride?: number): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(lengthOverride ?? payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream >>> 0, 5);
  return Buffer.concat([head, payload]);
}

/** h2c with prior knowledge: the preface (whole, cut short or altered), then frames of any type with random fields. */
export function rawH2c(): fc.Arbitrary<RawGarbage> {
  const frame = fc
    .tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 255 }), fc.oneof(fc.constant(0), fc.constant(1), fc.nat()), fc.uint8Array({ maxLength: 64 }), fc.option(fc.nat({ max: 2 ** 24 - 1 }), { freq: 4 }))
    .map(([type, flags, stream, payload, length]) => h2Frame(type, flags, stream, payload, length ?? undefined));
  const settings = h2Frame(4, 0, 0, new Uint8Array(0));
  return fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(H2_PREFACE) },
        { weight: 1, arbitrary: fc.nat({ max: H2_PREFACE.length - 1 }).map((cut) => H2_PREFACE.subarray(0, cut)) },
        { weight: 1, arbitrary: fc.constant(Buffer.from("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n")) },
      ),
      fc.boolean(),
      fc.array(frame, { maxLength: 6 }),
    )
    .map(([preface, withSettings, frames]) => ({ kind: "h2c" as const, bytes: Uint8Array.from(Buffer.concat([preface, ...(withSettings ? [settings] : []), ...frames])) }));
}
