import { expect } from "vitest";
import { ChatError } from "../../daemon/src/llm/chat-model.js";

/** Awaits a promise that must reject with a ChatError, and returns the error. */
export async function chatFailure(promise: Promise<unknown>): Promise<ChatError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatError);
  return error as ChatError;
}
