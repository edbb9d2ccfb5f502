import type { DescEnum } from "@bufbuild/protobuf";

/** Lower-case names of an enum's values without the UNSPECIFIED zero: MEMORY_KIND_FACT -> "fact". */
export function enumNames(schema: DescEnum): [string, ...string[]] {
  const names = schema.values.filter((v) => v.number !== 0).map((v) => v.localName.toLowerCase());
  const [first, ...rest] = names;
  if (first === undefined) throw new Error(`enum ${schema.typeName} has no values`);
  return [first, ...rest];
}

/** The number of a lower-case enum name; undefined stays undefined (the proto default). */
export function enumValue(schema: DescEnum, name: string | undefined): number | undefined {
  if (name === undefined) return undefined;
  const found = schema.values.find((v) => v.number !== 0 && v.localName.toLowerCase() === name);
  if (!found) throw new Error(`unknown ${schema.name} "${name}"`);
  return found.number;
}

/** The lower-case name of an enum value, for display. */
export function enumName(schema: DescEnum, value: number): string {
  return schema.values.find((v) => v.number === value)?.localName.toLowerCase() ?? String(value);
}
