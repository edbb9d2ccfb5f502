import { SetupError } from "./file-change.js";

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses a config file that must hold a JSON object; a missing or blank file is an empty one. */
export function parseJsonObject(file: string, text: string | null): JsonObject {
  if (text === null || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SetupError(`${file} is not valid JSON (${(error as Error).message}); fix it and run again. Nothing was changed.`, { cause: error });
  }
  if (!isJsonObject(value)) throw new SetupError(`${file} does not hold a JSON object; fix it and run again. Nothing was changed.`);
  return value;
}

/**
 * The new text of a JSON file: the old text itself when the value did not change (so a file in
 * the user's own layout is not rewritten for nothing), else the value in the file's indentation.
 */
export function formatJsonLike(before: string | null, original: JsonObject, updated: JsonObject): string {
  if (before !== null && JSON.stringify(original) === JSON.stringify(updated)) return before;
  const indent = before === null ? "  " : detectIndent(before);
  return `${JSON.stringify(updated, null, indent)}\n`;
}

/** The indentation of the first indented line: two spaces when there is none to copy. */
function detectIndent(text: string): string {
  const match = /\n([ \t]+)\S/.exec(text);
  if (!match) return text.trim().includes("\n") || text.trim().length <= 2 ? "  " : "";
  return match[1] ?? "  ";
}
