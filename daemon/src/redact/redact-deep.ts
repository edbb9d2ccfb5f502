import { isPlaceholder } from "./placeholder.js";
import { redact } from "./redact-secrets.js";
import { isSecretKeyName } from "./secret-key-name.js";
import { redactionMarker } from "./secret-types.js";

/**
 * A copy of `value` with every string inside plain objects and arrays redacted, for log objects
 * and export rows. A string under a key that names a secret (`password`, `apiKey`,
 * `GH_TOKEN`) is replaced whole, since nothing in `{ password: "hunter2" }` but the key says it
 * is one; under `authorization` the scheme stays and the credential goes. Object keys are kept
 * as they are. Class instances (Date, Buffer, Error, Map) are returned as they are, not copied:
 * turn them into plain values first if their contents need redacting. The input is never
 * mutated; cycles are kept as cycles in the copy.
 */
export function redactDeep(value: unknown): unknown {
  return copy(value, new Map());
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) {
    const known = seen.get(value);
    if (known !== undefined) return known;
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copy(item, seen));
    return out;
  }
  if (isPlainObject(value)) {
    const known = seen.get(value);
    if (known !== undefined) return known;
    const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
    seen.set(value, out);
    for (const [key, item] of Object.entries(value)) {
      // defineProperty, not assignment: an own "__proto__" key (JSON.parse makes them) stays a key.
      Object.defineProperty(out, key, {
        value: typeof item === "string" ? redactField(key, item) : copy(item, seen),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

const AUTHORIZATION_KEY = /^(?:proxy-)?authorization$/i;
const HEADER_PREFIX = "Authorization: ";

function redactField(key: string, item: string): string {
  // A logged request's headers.authorization holds the header's value without its name; read it
  // as the header it is, so that the scheme stays and the credential goes.
  if (AUTHORIZATION_KEY.test(key)) return redact(HEADER_PREFIX + item).slice(HEADER_PREFIX.length);
  return isSecretKeyName(key) ? redactWhole(item) : redact(item);
}

// The value of a secret-named key: its own type when a detector recognizes all of it, else
// password-assignment.
function redactWhole(item: string): string {
  if (item === "" || isPlaceholder(item)) return item;
  const redacted = redact(item);
  return /^\[REDACTED:[a-z0-9-]+\]$/.test(redacted) ? redacted : redactionMarker("password-assignment");
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
