import { afterEach, expect } from "vitest";
import { ChatError, type ChatModel } from "../../daemon/src/llm/chat-model.js";
import type { LocalServer } from "../embed/local-http-server.js";

/** Awaits a promise that must reject with a ChatError, and returns the error. */
export async function chatFailure(promise: Promise<unknown>): Promise<ChatError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatError);
  return error as ChatError;
}

/** The local servers and chat models a test starts, all closed after each test. */
export function chatFixtures(): { serve(server: Promise<LocalServer>): Promise<LocalServer>; keep(model: ChatModel): ChatModel } {
  const servers: LocalServer[] = [];
  const models: ChatModel[] = [];
  afterEach(async () => {
    await Promise.all(models.splice(0).map((m) => m.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return {
    async serve(server) {
      servers.push(await server);
      return servers.at(-1) as LocalServer;
    },
    keep(model) {
      models.push(model);
      return model;
    },
  };
}
