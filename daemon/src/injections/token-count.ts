/**
 * Tokens counted with a real tokenizer: o200k_base, the encoding of OpenAI's models from GPT-4o
 * on (Codex's among them), from gpt-tokenizer, a pure JavaScript port of tiktoken. Anthropic's
 * and Google's tokenizers differ (and Anthropic's is not public), so for Claude and Gemini the
 * count is an approximation; four characters per token, memd's budget estimate, misses o200k_base
 * by a third on memd's own pointer lines, whose ids cost a token per two or three characters.
 * Loading the encoding takes a third of a second and some 35 MB, so the daemon counts in a
 * worker thread (token-thread.ts) and never on a request's path.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

/** Special tokens (`<|endoftext|>`) in the text are counted as the plain text they are, never refused. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** The o200k_base tokens of `text`. */
export function o200kTokens(text: string): number {
  return text === "" ? 0 : countTokens(text, AS_PLAIN_TEXT);
}
