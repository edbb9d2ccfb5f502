import type { DescEnum, DescField, DescMessage } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import fc from "fast-check";
import { isWellKnown } from "./rpc-catalogue.js";

/** JSON text that JSON.stringify cannot write (1e400, -0, a key given twice), spliced in as is. */
export class RawJson {
  constructor(readonly text: string) {}
}

export type JsonValue = null | boolean | number | string | RawJson | JsonValue[] | { [key: string]: JsonValue };

/** What the generators need to know about the run. */
export interface ValueContext {
  /** Every path-like value is put under this directory: the suite must not write outside its home. */
  sandbox: string;
  /** A memory the suite may change (Update, Archive, Supersede); the protected ones are never named. */
  victimId: string;
}

export function toJsonText(value: JsonValue): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([key, v]) => `${JSON.stringify(key)}:${toJsonText(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const PATH_FIELD = /(^|_)(path|paths|cwd)$/;

function sandboxed(field: DescField, ctx: ValueContext, value: string): string {
  return PATH_FIELD.test(field.name) && value !== "" ? `${ctx.sandbox}/${value.replace(/^\/+/, "")}` : value;
}

// Sizes that cross the limits memd documents or should: 256-byte ids, 4 KiB paths, 1 MiB content,
// the 32 MiB read limit. The large ones are rare, to keep a run short.
const STRING_SIZES = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(257, 1_025, 4_097, 6_000) },
  { weight: 2, arbitrary: fc.constantFrom(65_537, 1_048_577) },
  { weight: 1, arbitrary: fc.constantFrom(10_485_760, 33_554_433) },
);
const LIST_SIZES = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(65, 257, 1_001) },
  { weight: 2, arbitrary: fc.constantFrom(10_001, 50_000) },
  { weight: 1, arbitrary: fc.constant(100_000) },
);

const ODD_STRINGS = [
  "", " ", "\u0000", "a\u0000b", "\r\n", "\t", "\ud800", "a\udc00b", "\u202eevil", "\ufeff", "🙂".repeat(64),
  "../../../../etc/passwd", "%", "_", "*", "NEAR(", '"', "' OR 1=1 --", "-", ":", "global", "GLOBAL",
  "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01arz3ndektsv4rrffq69g5fav", "0".repeat(26), "0".repeat(25),
  "9999-12-31T23:59:59.9995Z", "delete archived memories ", "null", "[]", "{}",
];

/** A hostile string: odd characters, random text, or far too long. */
export function hostileString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
    { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 200, maxLength: 2_000 }) },
    { weight: 3, arbitrary: fc.tuple(STRING_SIZES, fc.constantFrom("x", "é", "🙂", "a b ")).map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length))) },
    { weight: 1, arbitrary: STRING_SIZES.map((n) => Array.from({ length: Math.min(n, 200_000) / 8 }, (_, i) => `w${i} `).join("")) },
  );
}

const WRONG_JSON_TYPES: JsonValue[] = [null, true, false, 0, -1, 1.5, "x", "", [], {}, [null], [[]], { a: 1 }, new RawJson("1e400"), new RawJson("-0")];
const DEEP_JSON = new RawJson(`${"[".repeat(20_000)}${"]".repeat(20_000)}`);

function wrongJson(): fc.Arbitrary<JsonValue> {
  return fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...WRONG_JSON_TYPES) }, { weight: 1, arbitrary: fc.constant(DEEP_JSON) });
}

const INTEGERS: JsonValue[] = [
  0, -1, 1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 32, 2 ** 53 + 2, -(2 ** 53), 1.5, 1e308, -1e308,
  "1", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551616", "1e3", "NaN", "Infinity",
  "0x10", " 1", "", new RawJson("1e400"), new RawJson("-0"), new RawJson("1E2"),
];
const FLOATS: JsonValue[] = ["NaN", "Infinity", "-Infinity", 1e308, -1e308, 5e-324, -1, 2, 1.0000001, 3.5e38, new RawJson("1e999"), new RawJson("-0"), "0.5", "nan"];
const TIMESTAMPS: JsonValue[] = [
  "9999-12-31T23:59:59.9995Z", "9999-12-31T23:59:59.999999999Z", "10000-01-01T00:00:00Z", "0000-12-31T00:00:00Z", "0001-01-01T00:00:00Z",
  "1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999Z", "2024-02-30T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T25:00:00Z", "2024-01-01T00:00:00+99:00",
  "2024-01-01", "yesterday", "", 0, { seconds: "1" }, "2024-01-01T00:00:00.1234567890Z",
];

function scalarJson(type: ScalarType): fc.Arbitrary<JsonValue> {
  switch (type) {
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return fc.oneof(fc.constantFrom(...FLOATS), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case ScalarType.BOOL:
      return fc.constantFrom<JsonValue>("true", "false", 0, 1, "yes", "TRUE");
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return hostileString();
    default:
      return fc.oneof(fc.constantFrom(...INTEGERS), fc.integer(), fc.bigInt().map((n) => n.toString()));
  }
}

function enumJson(desc: DescEnum): fc.Arbitrary<JsonValue> {
  return fc.constantFrom<JsonValue>(
    ...desc.values.map((v) => v.name), ...desc.values.map((v) => v.name.toLowerCase()), `${desc.values[0]?.name ?? "X"}_BOGUS`, "", -1, 999, 2 ** 31 - 1, 2 ** 31, 0.5, "1",
  );
}

function messageJson(desc: DescMessage): fc.Arbitrary<JsonValue> {
  if (desc.typeName === "google.protobuf.Timestamp") return fc.oneof(fc.constantFrom(...TIMESTAMPS), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
  return fc.oneof(fc.constant({ unknownField: 1 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.constantFrom<JsonValue>(1, "x", null)));
}

function elementJson(field: DescField): fc.Arbitrary<JsonValue> {
  const type = field.fieldKind === "list" ? field.listKind : field.fieldKind;
  if (type === "scalar" && field.scalar !== undefined) return scalarJson(field.scalar);
  if (type === "enum" && field.enum) return enumJson(field.enum);
  if (type === "message" && field.message) return messageJson(field.message);
  return wrongJson();
}

/** A hostile JSON value for one field: the wrong type, an odd or oversized value, or a list far too long. */
export function hostileJson(field: DescField, ctx: ValueContext): fc.Arbitrary<JsonValue> {
  const reroot = (value: JsonValue): JsonValue =>
    typeof value === "string" ? sandboxed(field, ctx, value) : Array.isArray(value) ? value.map(reroot) : value;
  const element = elementJson(field);
  if (field.fieldKind !== "list") return fc.oneof({ weight: 5, arbitrary: element }, { weight: 1, arbitrary: wrongJson() }).map(reroot);
  return fc
    .oneof(
      { weight: 1, arbitrary: wrongJson() },
      { weight: 3, arbitrary: fc.array(element, { maxLength: 5 }) },
      { weight: 2, arbitrary: fc.tuple(LIST_SIZES, element).map(([n, e]) => manyOf(field, n, e, plausibleJson(field, ctx))) },
    )
    .map(reroot);
}

/** n entries: distinct strings for a string list (so nothing dedups them away), valid values of an enum, else n copies of a hostile one. */
function manyOf(field: DescField, n: number, sample: JsonValue, plausible: JsonValue): JsonValue[] {
  const first = Array.isArray(plausible) ? (plausible[0] ?? null) : null;
  if (field.fieldKind === "list" && field.listKind === "scalar" && field.scalar === ScalarType.STRING) return Array.from({ length: n }, (_, i) => `${String(first)}${i}`);
  if (field.fieldKind === "list" && field.listKind === "enum") return Array(n).fill(first);
  return Array(n).fill(typeof sample === "string" && sample.length > 100 ? first : sample);
}

/** A plausible JSON value for a field, so that the hostile one is what gets checked. */
export function plausibleJson(field: DescField, ctx: ValueContext): JsonValue {
  const one = plausibleElement(field, ctx);
  return field.fieldKind === "list" ? [one] : one;
}

function plausibleElement(field: DescField, ctx: ValueContext): JsonValue {
  const kind = field.fieldKind === "list" ? field.listKind : field.fieldKind;
  if (kind === "enum" && field.enum) return field.enum.values[1]?.name ?? field.enum.values[0]?.name ?? null;
  if (kind === "message" && field.message) {
    if (field.message.typeName === "google.protobuf.Timestamp") return new Date(Date.now() + 86_400_000).toISOString();
    return isWellKnown(field.message) ? {} : plausibleMessage(field.message, ctx);
  }
  switch (field.scalar) {
    case ScalarType.STRING:
      if (/(^|_)ids?$|^supersedes$|^superseded_by$/.test(field.name)) return ctx.victimId;
      if (PATH_FIELD.test(field.name)) return `${ctx.sandbox}/probe`;
      if (field.name === "project") return "hostile";
      return "hostile probe";
    case ScalarType.BOOL:
      return false;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return 0.5;
    default:
      return 1;
  }
}

/** Every field of a message with a plausible value. */
export function plausibleMessage(desc: DescMessage, ctx: ValueContext): { [key: string]: JsonValue } {
  return Object.fromEntries(desc.fields.filter((f) => !f.oneof).map((f) => [f.jsonName, plausibleJson(f, ctx)]));
}

// ---- binary ----

const INVALID_UTF8 = [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80], [0x61, 0x00, 0xfe]].map((b) => Uint8Array.from(b));
const VARINTS = [0n, 1n, 2n, 999n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n, 2n ** 40n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n];

function record(write: (w: BinaryWriter) => void): Uint8Array {
  const writer = new BinaryWriter();
  write(writer);
  return writer.finish();
}

/** Field records for one field as no encoder writes them: wrong wire types, truncations, invalid UTF-8, out-of-range numbers. */
export function hostileBinary(field: DescField, ctx: ValueContext): fc.Arbitrary<Uint8Array> {
  const no = field.number;
  const malformed = fc.oneof(
    fc.constantFrom(
      record((w) => w.tag(no, WireType.StartGroup)),
      record((w) => w.tag(no, WireType.EndGroup)),
      record((w) => w.tag(no, WireType.LengthDelimited).uint32(1_000).raw(Uint8Array.from([1, 2, 3]))),
      record((w) => w.tag(no, WireType.LengthDelimited).uint32(0xffffffff)),
      record((w) => w.tag(no, WireType.Bit64).raw(Uint8Array.from([1, 2]))),
      record((w) => w.tag(no, WireType.Varint)),
      Uint8Array.from([(no << 3) & 0xff, ...Array(11).fill(0xff)]),
      Uint8Array.from([0x00]),
      Uint8Array.from([0x07]),
      record((w) => w.tag(536_870_911, WireType.Varint).uint64(1n)),
    ),
    fc.constantFrom(WireType.Varint, WireType.Bit64, WireType.LengthDelimited, WireType.Bit32).chain((wire) =>
      fc.uint8Array({ maxLength: 16 }).map((bytes) => record((w) => {
        w.tag(no, wire);
        if (wire === WireType.Varint) w.uint64(2n ** 63n);
        else if (wire === WireType.Bit64) w.fixed64(1n);
        else if (wire === WireType.Bit32) w.fixed32(1);
        else w.bytes(bytes);
      })),
    ),
  );
  const kind = field.fieldKind === "list" ? field.listKind : field.fieldKind;
  let typed: fc.Arbitrary<Uint8Array>;
  if (kind === "scalar" && (field.scalar === ScalarType.STRING || field.scalar === ScalarType.BYTES)) {
    typed = fc.oneof(
      fc.constantFrom(...INVALID_UTF8).map((bytes) => record((w) => w.tag(no, WireType.LengthDelimited).bytes(bytes))),
      hostileString().map((s) => record((w) => w.tag(no, WireType.LengthDelimited).string(sandboxed(field, ctx, s)))),
    );
  } else if (kind === "message") {
    typed = field.message?.typeName === "google.protobuf.Timestamp"
      ? fc.tuple(fc.constantFrom(-(2n ** 62n), -62135596801n, 253402300800n, 2n ** 62n, 0n), fc.constantFrom(-1, 1_000_000_000, 2 ** 31 - 1, 999_999_999))
        .map(([seconds, nanos]) => record((w) => w.tag(no, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int64(seconds).tag(2, WireType.Varint).int32(nanos).join()))
      : fc.uint8Array({ maxLength: 64 }).map((bytes) => record((w) => w.tag(no, WireType.LengthDelimited).bytes(bytes)));
  } else if (kind === "scalar" && (field.scalar === ScalarType.DOUBLE || field.scalar === ScalarType.FLOAT)) {
    typed = fc.constantFrom(Number.NaN, Infinity, -Infinity, 1e308, -0, 5e-324).map((v) =>
      record((w) => (field.scalar === ScalarType.FLOAT ? w.tag(no, WireType.Bit32).float(v) : w.tag(no, WireType.Bit64).double(v))));
  } else if (kind === "scalar" && [ScalarType.FIXED32, ScalarType.SFIXED32, ScalarType.FIXED64, ScalarType.SFIXED64].includes(field.scalar as ScalarType)) {
    typed = fc.uint8Array({ minLength: 8, maxLength: 8 }).map((bytes) => record((w) => w.tag(no, WireType.Bit64).raw(bytes)));
  } else {
    typed = fc.constantFrom(...VARINTS).map((v) => record((w) => w.tag(no, WireType.Varint).uint64(v)));
  }
  if (field.fieldKind !== "list") return fc.oneof({ weight: 3, arbitrary: typed }, { weight: 2, arbitrary: malformed });
  // A long list, unpacked, and for numbers also one packed run that ends in the middle of a varint.
  const packed = fc.constant(record((w) => w.tag(no, WireType.LengthDelimited).bytes(Uint8Array.from([1, 2, 0x80]))));
  const many = fc.tuple(LIST_SIZES, typed).map(([n, one]) => concat(Array(Math.min(n, Math.floor(8_000_000 / Math.max(one.length, 1)))).fill(one)));
  return fc.oneof({ weight: 3, arbitrary: typed }, { weight: 2, arbitrary: malformed }, { weight: 1, arbitrary: packed }, { weight: 2, arbitrary: many });
}

export function concat(parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}
