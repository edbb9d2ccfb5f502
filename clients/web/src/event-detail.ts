import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { timeText } from "./dom.js";

/** One line of a history entry's detail: a field and its value in words, or a group of fields (a version it replaced). */
export type DetailField = { label: string; text: string } | { label: string; fields: DetailField[] };

/**
 * A history entry's detail as fields a person reads, for details the daemon records as JSON (an
 * edit's replaced values, a vault edit, a hub conflict's losing version); null for a detail in
 * words, shown as it is. An edit made through Update records only the values it replaced, so
 * those are put under "replaced".
 */
export function detailFields(action: string, detail: string): DetailField[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(detail);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const shown = action === "updated" && !("replaced" in parsed) && !("changed" in parsed) ? { replaced: parsed } : parsed;
  return fieldsOf(shown);
}

function fieldsOf(record: Record<string, unknown>): DetailField[] {
  return Object.entries(record).map(([key, value]) => {
    const label = words(key);
    return isRecord(value) ? { label, fields: fieldsOf(value) } : { label, text: valueText(key, value) };
  });
}

/** camelCase and snake_case as words: "replacedVersion" is "replaced version". */
function words(key: string): string {
  return key.replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

/** A value in words; a time stored as milliseconds (a key ending in At) as a UTC time. */
function valueText(key: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "-";
  if (Array.isArray(value)) return value.length === 0 ? "-" : value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v))).join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number" && /At$/.test(key) && Number.isFinite(value)) return timeText(timestampFromMs(value));
  return String(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
