import { type DescField, type DescMessage, getOption, hasOption, type Message } from "@bufbuild/protobuf";
import { reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { max_bytes, max_items } from "../../../gen/memd/v1/field_bounds_pb.js";

/** The bounds of a field without its own, as proto/memd/v1/field_bounds.proto documents them. */
const DEFAULT_MAX_BYTES = 4096;
const DEFAULT_MAX_ITEMS = 100;

interface Bounds {
  maxBytes: number;
  maxItems: number;
}

const boundsByField = new WeakMap<DescField, Bounds>();

function boundsOf(field: DescField): Bounds {
  let bounds = boundsByField.get(field);
  if (!bounds) {
    bounds = {
      maxBytes: hasOption(field, max_bytes) ? getOption(field, max_bytes) : DEFAULT_MAX_BYTES,
      maxItems: hasOption(field, max_items) ? getOption(field, max_items) : DEFAULT_MAX_ITEMS,
    };
    boundsByField.set(field, bounds);
  }
  return bounds;
}

/**
 * Refuses a request with a field over its size bound (proto/memd/v1/field_bounds.proto) before
 * any handler runs: the one place where every string and list of every RPC is bounded, so that
 * no handler stores, logs or loops over an unbounded value. Streamed requests are not checked.
 */
export function fieldBoundsInterceptor(): Interceptor {
  return (next) => async (req) => {
    if (!req.stream) {
      const problem = oversizedField(req.method.input, req.message);
      if (problem !== null) throw new ConnectError(problem, Code.InvalidArgument);
    }
    return next(req);
  };
}

/** What in the message is over its bound, said for a person; null when nothing is. */
export function oversizedField(schema: DescMessage, message: Message): string | null {
  return check(reflect(schema, message), "");
}

function check(message: ReflectMessage, path: string): string | null {
  for (const field of message.fields) {
    if (!message.isSet(field)) continue;
    const name = `${path}${field.name}`;
    const bounds = boundsOf(field);
    if (field.fieldKind === "scalar") {
      const problem = tooLong(name, message.get(field), bounds);
      if (problem !== null) return problem;
    } else if (field.fieldKind === "message") {
      const problem = check(message.get(field), `${name}.`);
      if (problem !== null) return problem;
    } else if (field.fieldKind === "list" || field.fieldKind === "map") {
      const entries = message.get(field);
      if (entries.size > bounds.maxItems) {
        return `${name} has ${entries.size} entries; at most ${bounds.maxItems} are accepted`;
      }
      let index = 0;
      for (const entry of entries.values()) {
        const item = `${name}[${index}]`;
        const problem = field.fieldKind === "list" && field.listKind === "message" ? check(entry as ReflectMessage, `${item}.`) : tooLong(item, entry, bounds);
        if (problem !== null) return problem;
        index += 1;
      }
    }
  }
  return null;
}

function tooLong(name: string, value: unknown, bounds: Bounds): string | null {
  const bytes = typeof value === "string" ? Buffer.byteLength(value) : value instanceof Uint8Array ? value.length : 0;
  return bytes > bounds.maxBytes ? `${name} is ${bytes} bytes; at most ${bounds.maxBytes} are accepted` : null;
}

