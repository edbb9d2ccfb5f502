import zlib from "node:zlib";
import { type DescField, type DescMessage, fromJson, type JsonObject, toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import fc from "fast-check";
import type { OutgoingRequest } from "./http-exchange.js";
import { concat, hostileBinary, hostileJson, type JsonValue, plausibleJson, plausibleMessage, toJsonText, type ValueContext } from "./hostile-values.js";
import type { FieldTarget, Rpc } from "./rpc-catalogue.js";

export type Protocol = "connect" | "connect-get" | "grpc" | "grpc-web";
export type Wire = "json" | "binary";

/** One hostile call, with what it takes to repeat it by hand. */
export interface HostileCall {
  rpc: Rpc;
  /** The field that holds the hostile value, or "(whole message)" for a mangled body. */
  target: string;
  wire: Wire;
  protocol: Protocol;
  gzip: boolean;
  http2: boolean;
  /** The message before framing: JSON text or protobuf bytes. */
  payload: Uint8Array;
  request: OutgoingRequest;
}

/** A minimal reproducer: the request line, its headers and the start of its body. */
export function describeCall(call: HostileCall): string {
  const { request, payload } = call;
  const shown = call.wire === "json" ? JSON.stringify(Buffer.from(payload.subarray(0, 300)).toString("utf8")) : Buffer.from(payload.subarray(0, 120)).toString("hex");
  const more = payload.length > (call.wire === "json" ? 300 : 120) ? ` ... (${payload.length} bytes)` : "";
  return `${request.method ?? "POST"} ${request.path.slice(0, 200)} over HTTP/${call.http2 ? "2" : "1.1"} ${JSON.stringify(request.headers)} ${call.gzip ? "gzip of " : ""}${call.wire} message ${shown}${more}`;
}

/** A field's JSON key, as protobuf JSON writes it or as the .proto spells it (both are accepted). */
function keyOf(field: DescField, protoName: boolean): string {
  return protoName ? field.name : field.jsonName;
}

function baselineJson(message: DescMessage, keep: DescField[], ctx: ValueContext): JsonObject {
  return Object.fromEntries(keep.filter((f) => !f.oneof).map((f) => [f.jsonName, plausibleJson(f, ctx) as never]));
}

/** The request as JSON, plausible in the fields kept and hostile at the target. */
function jsonWithHostile(target: FieldTarget, keep: DescField[], value: JsonValue, protoName: boolean, ctx: ValueContext): JsonValue {
  const top: { [key: string]: JsonValue } = baselineJson(target.rpc.method.input, keep, ctx) as { [key: string]: JsonValue };
  let holder = top;
  target.fields.forEach((field, i) => {
    if (i === target.fields.length - 1) {
      holder[keyOf(field, protoName)] = value;
      return;
    }
    const child = plausibleMessage(field.message as DescMessage, ctx);
    delete child[target.fields[i + 1]?.jsonName ?? ""];
    holder[keyOf(field, protoName)] = field.fieldKind === "list" ? [child] : child;
    holder = child;
  });
  return top;
}

/** The request as protobuf: a valid encoding of the kept fields, then the hostile records, nested where the target is. */
function binaryWithHostile(target: FieldTarget, keep: DescField[], records: Uint8Array, ctx: ValueContext): Uint8Array {
  const encode = (message: DescMessage, json: JsonObject, rest: DescField[]): Uint8Array => {
    const valid = toBinary(message, fromJson(message, json));
    const [field, ...deeper] = rest;
    if (!field) return valid;
    if (deeper.length === 0) return concat([valid, records]);
    const inner = field.message as DescMessage;
    const nested = encode(inner, plausibleMessage(inner, ctx) as JsonObject, deeper);
    return concat([valid, new BinaryWriter().tag(field.number, WireType.LengthDelimited).bytes(nested).finish()]);
  };
  return encode(target.rpc.method.input, baselineJson(target.rpc.method.input, keep, ctx), target.fields);
}

/** A hostile payload for one field of one RPC, in JSON or binary. */
export function hostilePayload(target: FieldTarget, ctx: ValueContext): fc.Arbitrary<{ wire: Wire; payload: Uint8Array }> {
  const leaf = target.fields[target.fields.length - 1] as DescField;
  const others = target.rpc.method.input.fields.filter((f) => f !== target.fields[0]);
  const keep = fc.subarray(others);
  const json = fc.tuple(keep, hostileJson(leaf, ctx), fc.boolean()).map(([kept, value, protoName]) => ({
    wire: "json" as const,
    payload: Buffer.from(toJsonText(jsonWithHostile(target, kept, value, protoName, ctx))),
  }));
  const binary = fc.tuple(keep, hostileBinary(leaf, ctx)).map(([kept, records]) => ({ wire: "binary" as const, payload: binaryWithHostile(target, kept, records, ctx) }));
  return fc.oneof(json, binary);
}

/** A whole message mangled: a valid body cut short, with bytes flipped or garbage added, or JSON that is not an object. */
export function mangledPayload(rpc: Rpc, ctx: ValueContext): fc.Arbitrary<{ wire: Wire; payload: Uint8Array }> {
  const input = rpc.method.input;
  const validJson = toJsonText(plausibleMessage(input, ctx));
  const validBinary = toBinary(input, fromJson(input, plausibleMessage(input, ctx) as JsonObject));
  const mangle = (valid: Uint8Array) =>
    fc.oneof(
      fc.nat({ max: Math.max(valid.length - 1, 0) }).map((cut) => valid.subarray(0, cut)),
      fc.tuple(fc.nat({ max: Math.max(valid.length - 1, 0) }), fc.integer({ min: 1, max: 255 })).map(([at, xor]) => {
        const copy = Uint8Array.from(valid);
        if (copy.length > 0) copy[at] = (copy[at] ?? 0) ^ xor;
        return copy;
      }),
      fc.uint8Array({ minLength: 1, maxLength: 64 }).map((garbage) => concat([valid, garbage])),
      fc.uint8Array({ maxLength: 256 }),
    );
  const jsonTexts = fc.oneof(
    mangle(Buffer.from(validJson)),
    fc.constantFrom("", "null", "[]", "0", '"x"', "\ufeff{}", "{}{}", '{"a":1,"a":2}', "{,}", `${validJson} trailing`, `[${validJson}]`).map((t) => Buffer.from(t)),
    fc.constant(Buffer.from(`{"x":${"[".repeat(50_000)}${"]".repeat(50_000)}}`)),
    fc.string({ unit: "binary", maxLength: 200 }).map((t) => Buffer.from(t)),
  );
  return fc.oneof(
    jsonTexts.map((payload) => ({ wire: "json" as const, payload: Uint8Array.from(payload) })),
    mangle(validBinary).map((payload) => ({ wire: "binary" as const, payload })),
  );
}

/** The deadline each streamed hostile call is sent with. */
const STREAM_DEADLINE_MS = 3000;

/** A Connect/gRPC envelope: flags, a 4-byte big-endian length, the payload. */
export function envelope(flags: number, payload: Uint8Array): Uint8Array {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(payload.length, 1);
  return concat([head, payload]);
}

/** The protocols an RPC can be called with: Connect (POST, and GET when read-only), gRPC, gRPC-web. */
export function protocolsOf(rpc: Rpc): Protocol[] {
  return ["connect", "grpc", "grpc-web", ...(rpc.allowsGet && rpc.method.methodKind === "unary" ? (["connect-get"] as const) : [])];
}

/** Frames a payload as the chosen protocol frames it: headers, envelope, compression, query. */
export function frame(rpc: Rpc, target: string, wire: Wire, payload: Uint8Array, protocol: Protocol, gzip: boolean, http2Wanted: boolean): HostileCall {
  const subtype = wire === "json" ? "json" : "proto";
  const body = gzip ? Uint8Array.from(zlib.gzipSync(payload)) : payload;
  const streaming = rpc.method.methodKind !== "unary";
  // A watch (ChangeService.WatchChanges) never ends by itself: every stream gets a deadline, as its
  // clients give one, and answers deadline_exceeded at the latest.
  const headers: Record<string, string> = streaming ? (protocol === "connect" ? { "connect-timeout-ms": String(STREAM_DEADLINE_MS) } : { "grpc-timeout": `${STREAM_DEADLINE_MS}m` }) : {};
  let request: OutgoingRequest;
  let http2 = http2Wanted;
  switch (protocol) {
    case "connect-get": {
      const message = wire === "json" && !gzip ? encodeURIComponent(Buffer.from(payload).toString("utf8")) : `${Buffer.from(body).toString("base64url")}&base64=1`;
      request = { method: "GET", path: `${rpc.path}?connect=v1&encoding=${subtype}${gzip ? "&compression=gzip" : ""}&message=${message}`, headers };
      break;
    }
    case "grpc":
      http2 = true;
      Object.assign(headers, { "content-type": `application/grpc+${subtype}`, te: "trailers" }, gzip ? { "grpc-encoding": "gzip" } : {});
      request = { path: rpc.path, headers, body: envelope(gzip ? 1 : 0, body) };
      break;
    case "grpc-web":
      Object.assign(headers, { "content-type": `application/grpc-web+${subtype}` }, gzip ? { "grpc-encoding": "gzip" } : {});
      request = { path: rpc.path, headers, body: envelope(gzip ? 1 : 0, body) };
      break;
    default:
      if (streaming) {
        Object.assign(headers, { "content-type": `application/connect+${subtype}`, "connect-protocol-version": "1" }, gzip ? { "connect-content-encoding": "gzip" } : {});
        request = { path: rpc.path, headers, body: envelope(gzip ? 1 : 0, body) };
      } else {
        Object.assign(headers, { "content-type": `application/${subtype}`, "connect-protocol-version": "1" }, gzip ? { "content-encoding": "gzip" } : {});
        request = { path: rpc.path, headers, body };
      }
  }
  return { rpc, target, wire, protocol, gzip, http2, payload, request };
}

