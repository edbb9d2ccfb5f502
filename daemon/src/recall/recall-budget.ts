/** Approximate token accounting for recall answers: about four characters per token. */

const CHARS_PER_TOKEN = 4;
/** Id, kind, project and punctuation around each item. */
const ITEM_OVERHEAD_TOKENS = 12;
const SUMMARY_CHARS = 140;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** One line from a memory: its first sentence, or its start cut at a word boundary. */
export function summarize(content: string, maxChars = SUMMARY_CHARS): string {
  const flat = content.replace(/\s+/g, " ").trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  if (sentence.length <= maxChars) return sentence;
  const cut = sentence.slice(0, maxChars - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > maxChars / 2 ? cut.slice(0, space) : cut}…`;
}

/** What one item costs: its text plus the fields around it. */
export function itemTokens(text: string): number {
  return estimateTokens(text) + ITEM_OVERHEAD_TOKENS;
}

export interface Budgeted<T> {
  kept: T[];
  tokens: number;
  /** True when items were left out for the count or the budget. */
  truncated: boolean;
}

/**
 * Keeps items in order while they fit the count and the token budget (0 = no budget). An
 * item that does not fit is skipped, so a smaller one after it may still be kept.
 */
export function fitBudget<T>(items: readonly T[], cost: (item: T) => number, limit: number, maxTokens: number): Budgeted<T> {
  const kept: T[] = [];
  let tokens = 0;
  for (const item of items) {
    if (kept.length >= limit) break;
    const price = cost(item);
    if (maxTokens > 0 && tokens + price > maxTokens) continue;
    kept.push(item);
    tokens += price;
  }
  return { kept, tokens, truncated: kept.length < items.length };
}
