import type { DescEnum } from "@bufbuild/protobuf";
import { InvalidArgumentError } from "commander";

/** Lower-case names of an enum's values without the UNSPECIFIED zero: MEMORY_KIND_FACT -> "fact". */
export function enumNames(schema: DescEnum): string[] {
  return schema.values.filter((v) => v.number !== 0).map((v) => v.localName.toLowerCase());
}

/** A commander argument parser that turns a name such as "decision" into the enum's number. */
export function enumParser(schema: DescEnum) {
  return (value: string): number => {
    const found = schema.values.find((v) => v.number !== 0 && v.localName.toLowerCase() === value.toLowerCase());
    if (!found) throw new InvalidArgumentError(`expected one of: ${enumNames(schema).join(", ")}`);
    return found.number;
  };
}

/** Like enumParser, for options that may be repeated or comma-separated. */
export function enumListParser(schema: DescEnum) {
  const one = enumParser(schema);
  return (value: string, previous: number[] = []): number[] => [...previous, ...splitList(value).map(one)];
}

/** The name of an enum value, for display. */
export function enumName(schema: DescEnum, value: number): string {
  return schema.values.find((v) => v.number === value)?.localName.toLowerCase() ?? String(value);
}

export function splitList(value: string): string[] {
  return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

export function listParser(value: string, previous: string[] = []): string[] {
  return [...previous, ...splitList(value)];
}

export function numberParser(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError("expected a number");
  return n;
}

export function intParser(value: string): number {
  const n = numberParser(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError("expected a whole number");
  return n;
}

export function dateParser(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new InvalidArgumentError("expected a date such as 2026-12-31 or 2026-12-31T09:00:00Z");
  return date;
}
