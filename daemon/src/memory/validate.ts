import path from "node:path";
import { InvalidInputError, TooLargeError } from "../errors.js";
import { redact } from "../redact/redact-secrets.js";

/** Limits that keep one memory small enough to recall cheaply. */
export interface MemoryLimits {
  /** Largest content, in UTF-8 bytes. */
  maxContentBytes: number;
}

const MAX_LIST_ITEMS = 64;
const MAX_LIST_ITEM_CHARS = 512;
const MAX_PROJECT_CHARS = 128;
const MAX_ID_CHARS = 64;
// Control characters break terminal output and log lines; tabs and newlines are fine in text.
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function validateContent(field: string, value: string, limits: MemoryLimits): string {
  if (value.trim() === "") {
    throw new InvalidInputError(`${field} is empty: give the memory some text`);
  }
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > limits.maxContentBytes) {
    throw new TooLargeError(
      `${field} is ${bytes} bytes, over the limit of ${limits.maxContentBytes}: ` +
        "split it into several memories or raise MEMD_MAX_CONTENT_BYTES",
    );
  }
  return value;
}

/** Free text beside the content (problem, solution) may be empty but obeys the same size limit. */
export function validateOptionalText(field: string, value: string, limits: MemoryLimits): string {
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > limits.maxContentBytes) {
    throw new TooLargeError(
      `${field} is ${bytes} bytes, over the limit of ${limits.maxContentBytes}: shorten it or raise MEMD_MAX_CONTENT_BYTES`,
    );
  }
  return value;
}

export function validateRange(field: string, value: number, min: number, max: number): number {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new InvalidInputError(`${field} must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

/**
 * A date by which something should happen must lie ahead: a review date in the past would make
 * the memory due at once, which is never what a caller meant. Import keeps past dates as they were.
 */
export function validateFutureTime(field: string, value: number | null, now: number): number | null {
  if (value !== null && value < now) {
    throw new InvalidInputError(`${field} ${new Date(value).toISOString()} is in the past: give a date after ${new Date(now).toISOString()}, or none`);
  }
  return value;
}

export function validateImportance(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 5) {
    throw new InvalidInputError(`importance must be a whole number from 1 to 5, got ${value}`);
  }
  return value;
}

/** Trims, drops empties and duplicates, and bounds the size of a list field such as concepts. */
export function normalizeList(field: string, values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of values) {
    const value = raw.trim();
    if (value === "" || out.has(value)) continue;
    if (value.length > MAX_LIST_ITEM_CHARS || CONTROL_CHARS.test(value)) {
      throw new InvalidInputError(
        `${field} entry ${shown(value)} is too long (over ${MAX_LIST_ITEM_CHARS} characters) or holds control characters`,
      );
    }
    out.add(value);
    if (out.size > MAX_LIST_ITEMS) {
      throw new InvalidInputError(`${field} has more than ${MAX_LIST_ITEMS} distinct entries; at most ${MAX_LIST_ITEMS} are allowed`);
    }
  }
  return [...out];
}

export function validateProjectName(value: string): string {
  const name = value.trim();
  if (name === "" || name.length > MAX_PROJECT_CHARS || CONTROL_CHARS.test(name)) {
    throw new InvalidInputError(
      `project ${shown(value)} is not a valid name: use 1 to ${MAX_PROJECT_CHARS} printable characters`,
    );
  }
  return name;
}

export function validateId(value: string): string {
  const id = value.trim();
  if (id === "") throw new InvalidInputError("id is empty: pass the id of a memory (see memctl list)");
  if (id.length > MAX_ID_CHARS || CONTROL_CHARS.test(id)) {
    throw new InvalidInputError(`id ${shown(id)} is not a memory id`);
  }
  return id;
}

// 26 Crockford base32 characters whose first is at most 7: the largest ULID is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ,
// since its 48-bit time and 80 random bits fill 128 bits; "8..." would overflow both.
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** Imported memories keep their ids, which must be ULIDs so that ids keep sorting by time. */
export function validateUlid(value: string, field = "id"): string {
  if (!ULID.test(value)) {
    throw new InvalidInputError(`${field} ${shown(value)} is not a ULID (26 Crockford base32 characters, the first from 0 to 7)`);
  }
  return value;
}

/**
 * A path a request names (a cwd, a transcript, a note): absolute, and free of NUL and other
 * control characters, which the filesystem calls refuse with an error of their own. Returns
 * it resolved; `what` says what to give instead.
 */
export function validateAbsolutePath(field: string, value: string, what: string): string {
  if (value.trim() === "") throw new InvalidInputError(`${field} is empty: give ${what}`);
  if (CONTROL_CHARS.test(value)) throw new InvalidInputError(`${field} holds a NUL or another control character: give ${what}`);
  if (!path.isAbsolute(value)) throw new InvalidInputError(`${field} must be an absolute path, got ${shown(value, 200)}: give ${what}`);
  return path.resolve(value);
}

/**
 * The start of a refused value, quoted, for an error message: redacted whole before it is cut,
 * since the message reaches the caller's log and memd.log, and a secret cut short is no longer
 * recognised there.
 */
function shown(value: string, chars = 40): string {
  const text = redact(value);
  return JSON.stringify(text.length > chars ? `${text.slice(0, chars)}…` : text);
}
