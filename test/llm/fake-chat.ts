import type { ServerResponse } from "node:http";
import { fakeVector, type LocalServer, type RecordedRequest, sendJson, startLocalServer } from "../embed/local-http-server.js";

/** A chat message as the fakes receive it. */
export interface FakeChatMessage {
  role: string;
  content: string;
}

/**
 * How a fake model answers a chat request: "hang" never answers, "garbage" answers 200 with a
 * body that is not JSON, a number answers that HTTP status, and a function returns the text the
 * model writes (it sees the request's messages).
 */
export type FakeChatBehaviour = "hang" | "garbage" | number | ((messages: FakeChatMessage[]) => string);

export interface FakeChatOptions {
  behaviour: FakeChatBehaviour;
  /** Token counts to report; default 100 in and 20 out. */
  usage?: { input: number; output: number };
}

export interface FakeOllamaChatOptions extends FakeChatOptions {
  /**
   * Also answer /api/tags, /api/show and /api/embed (nomic-embed-text, 768 dimensions, vectors
   * from fakeVector), so that one server can be OLLAMA_HOST for the embedder and the chat model.
   */
  embeddings?: boolean;
}

const EMBED_DIMENSIONS = 768;

/** The chat requests a fake received (embedding requests left out). */
export function chatRequests(server: LocalServer): RecordedRequest[] {
  return server.requests.filter((r) => r.path === "/api/chat" || r.path === "/v1/chat/completions");
}

/** A local server that speaks Ollama's POST /api/chat (non-streaming), and optionally its embedding API. */
export function startFakeOllamaChat(options: FakeOllamaChatOptions): Promise<LocalServer> {
  const usage = options.usage ?? { input: 100, output: 20 };
  return startLocalServer((request, response) => {
    const body = (request.body ?? {}) as { model?: string; messages?: FakeChatMessage[]; input?: string[] };
    if (request.path === "/api/chat" && request.method === "POST") {
      return answer(options.behaviour, body.messages ?? [], response, (text) => ({
        model: body.model,
        created_at: "2026-10-14T09:41:12.300Z",
        message: { role: "assistant", content: text },
        done: true,
        done_reason: "stop",
        prompt_eval_count: usage.input,
        eval_count: usage.output,
      }), (status) => ({ error: `simulated failure ${status}` }));
    }
    if (options.embeddings && request.path === "/api/tags") {
      return sendJson(response, 200, { models: ["nomic-embed-text:latest", "llama3.2:latest"].map((name) => ({ name, model: name, details: {} })) });
    }
    if (options.embeddings && request.path === "/api/show") {
      return sendJson(response, 200, { model_info: { "general.architecture": "nomic-bert", "nomic-bert.embedding_length": EMBED_DIMENSIONS } });
    }
    if (options.embeddings && request.path === "/api/embed") {
      return sendJson(response, 200, { model: body.model, embeddings: (body.input ?? []).map((text) => fakeVector(text, EMBED_DIMENSIONS)) });
    }
    sendJson(response, 404, { error: "not found" });
  });
}

/** A local server that speaks OpenAI's POST /v1/chat/completions. */
export function startFakeOpenAiChat(options: FakeChatOptions): Promise<LocalServer> {
  const usage = options.usage ?? { input: 100, output: 20 };
  return startLocalServer((request, response) => {
    const body = (request.body ?? {}) as { model?: string; messages?: FakeChatMessage[] };
    if (request.path === "/v1/chat/completions" && request.method === "POST") {
      return answer(options.behaviour, body.messages ?? [], response, (text) => ({
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 1_791_970_872,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
        usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
      }), (status) => ({ error: { message: `simulated failure ${status}`, type: "server_error", code: null } }));
    }
    sendJson(response, 404, { error: { message: "not found" } });
  });
}

function answer(
  behaviour: FakeChatBehaviour,
  messages: FakeChatMessage[],
  response: ServerResponse,
  completion: (text: string) => unknown,
  failure: (status: number) => unknown,
): void {
  if (behaviour === "hang") return;
  if (behaviour === "garbage") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end("<html>this is not JSON");
    return;
  }
  if (typeof behaviour === "number") return sendJson(response, behaviour, failure(behaviour));
  sendJson(response, 200, completion(behaviour(messages)));
}
