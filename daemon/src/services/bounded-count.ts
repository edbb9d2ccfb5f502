import { InvalidInputError } from "../errors.js";

/** A count field of a request (a limit, a page size, days): 0 means `fallback`, else a whole number from 1 to `max`. */
export function boundedCount(field: string, value: number, fallback: number, max: number): number {
  if (value === 0) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new InvalidInputError(`${field} must be between 1 and ${max}, got ${value}`);
  }
  return value;
}
