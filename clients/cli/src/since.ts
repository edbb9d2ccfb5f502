import { InvalidArgumentError } from "commander";

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * A `--since` value as ms since the epoch: an age ("90m", "12h", "7d", "2w", counted back from
 * `now`) or a date or time ISO 8601 reads ("2026-12-01", "2026-12-01T09:00:00Z"; a date alone is
 * UTC midnight). Anything else is a usage error that says what is taken.
 */
export function parseSince(value: string, now: number): number {
  const age = /^\s*(\d+)\s*([mhdw])\s*$/.exec(value);
  if (age) return now - Number(age[1]) * (UNITS[age[2] as string] as number);
  const at = /^\d{4}-\d{2}-\d{2}/.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (Number.isNaN(at)) throw new InvalidArgumentError("expected an age such as 90m, 12h, 7d or 2w, or a date or time such as 2026-12-01 or 2026-12-01T09:00:00Z");
  return at;
}
