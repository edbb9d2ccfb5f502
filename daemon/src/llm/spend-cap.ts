import type { LlmSpend, LlmUsageDay } from "../store/store.js";
import { type ChatCompletion, ChatError, type ChatMessage, type ChatModel, type ChatOptions, type ChatUsage, estimateTokens } from "./chat-model.js";

/** Today's spend against the cap, for Stats and the logs. */
export interface SpendToday {
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** Input and output tokens recorded today. */
  usedTokens: number;
  calls: number;
  capTokens: number;
}

/** A chat model that refuses any call that could take today's tokens past the daily cap. */
export interface CappedChatModel extends ChatModel {
  spendToday(): SpendToday;
}

export interface SpendCapOptions {
  /** Where the tokens spent per UTC day are kept: the database, so that a restart does not reset the cap. */
  ledger: LlmSpend;
  now: () => number;
  /** Input plus output tokens per UTC day, across every use. */
  dailyTokens: number;
}

/** The UTC day of a time, as the ledger keys it: "2026-10-14". */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * What a call may cost at most, priced before it is made: the prompt at about four characters a
 * token, plus every completion token it may write.
 */
export function callEstimate(messages: readonly ChatMessage[], maxTokens: number): number {
  return estimateTokens(messages.map((m) => m.content).join("\n")) + maxTokens;
}

/**
 * Wraps a model with the daily spend cap. Before a call, its worst case (callEstimate) plus what
 * today already used plus what calls in flight may still use must fit under the cap, or it is
 * not made (ChatError "over-cap"). After it, the tokens the provider counted are recorded. A
 * call that timed out is charged its worst case, since the provider may have done the work.
 */
export function withSpendCap(model: ChatModel, options: SpendCapOptions): CappedChatModel {
  const { ledger, now, dailyTokens } = options;
  // Calls in flight, priced at their worst case: two callers at once must not both fit the last gap.
  let reserved = 0;
  const spent = (usage: LlmUsageDay) => usage.inputTokens + usage.outputTokens;

  return {
    provider: model.provider,
    model: model.model,
    async complete(messages: readonly ChatMessage[], chat: ChatOptions): Promise<ChatCompletion> {
      const day = utcDay(now());
      const estimate = callEstimate(messages, chat.maxTokens);
      const used = spent(ledger.day(day));
      if (used + reserved + estimate > dailyTokens) {
        throw new ChatError(
          `the daily language-model cap would be passed: ${used} of ${dailyTokens} tokens used today (UTC)` +
            `${reserved > 0 ? `, ${reserved} reserved by calls in flight` : ""}, and this call may take ${estimate} (MEMD_LLM_DAILY_TOKENS)`,
          "over-cap",
        );
      }
      reserved += estimate;
      try {
        const completion = await model.complete(messages, chat);
        ledger.add(day, completion.usage);
        return completion;
      } catch (error) {
        const charged = chargeForFailure(error, estimate, chat.maxTokens);
        if (charged) ledger.add(day, charged);
        throw error;
      } finally {
        reserved -= estimate;
      }
    },
    spendToday(): SpendToday {
      const usage = ledger.day(utcDay(now()));
      return { day: usage.day, usedTokens: spent(usage), calls: usage.calls, capTokens: dailyTokens };
    },
    close: () => model.close(),
  };
}

/** What a failed call costs: what the provider counted, the worst case after a timeout, else nothing (no answer, or an error status). */
function chargeForFailure(error: unknown, estimate: number, maxTokens: number): ChatUsage | undefined {
  if (!(error instanceof ChatError)) return undefined;
  if (error.usage) return error.usage;
  if (error.reason === "timeout") return { inputTokens: estimate - maxTokens, outputTokens: maxTokens };
  return undefined;
}
