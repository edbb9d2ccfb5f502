import { ChatError, type ChatMessage, type ChatModel } from "./chat-model.js";

/** Asks the model for a JSON reply: its text, or why the model gave none. Errors other than the model's own are thrown. */
export async function askForJson(model: ChatModel, messages: readonly ChatMessage[], maxTokens: number): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  try {
    const { text } = await model.complete(messages, { maxTokens, json: true });
    return { ok: true, text };
  } catch (error) {
    if (error instanceof ChatError) return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * The JSON object a model replied with, or undefined. Models asked for JSON sometimes wrap it in
 * a Markdown fence or a sentence anyway, so the outermost braces are taken.
 */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The strings of a list a model returned, trimmed, non-empty, each at most `maxChars`, at most `maxItems`. */
export function stringList(value: unknown, maxItems: number, maxChars: number): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.trim())
    // Control characters break terminals and the list validation; a tab or newline is no topic word either.
    .filter((item) => item !== "" && item.length <= maxChars && !/[\u0000-\u001f\u007f]/.test(item))
    .slice(0, maxItems);
}
