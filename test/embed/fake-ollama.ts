import { type LocalServer, type RecordedRequest, fakeVector, sendJson, startLocalServer } from "./local-http-server.js";

export interface FakeOllamaOptions {
  /** What /api/tags lists, e.g. ["nomic-embed-text:latest"]. */
  models?: string[];
  /** The size of the vectors /api/embed returns and /api/show reports. Default 768. */
  dimensions?: number;
  /** "hang": /api/embed never answers. A number: /api/embed answers with that status. */
  embed?: "ok" | "hang" | number;
  /** /api/tags never answers. */
  tagsHang?: boolean;
  /** /api/embed answers 503 while this returns true for the texts asked for. */
  failWhen?: (texts: string[]) => boolean;
  /** /api/embed never answers while this returns true for the texts asked for. */
  hangWhen?: (texts: string[]) => boolean;
  /** /api/embed answers texts for which this returns a promise only once that promise settles. */
  holdWhen?: (texts: string[]) => Promise<void> | undefined;
}

/** A local server that speaks the parts of the Ollama API memd uses: /api/tags, /api/show, /api/embed. */
export function startFakeOllama(options: FakeOllamaOptions = {}): Promise<LocalServer> {
  const models = options.models ?? ["nomic-embed-text:latest"];
  const dimensions = options.dimensions ?? 768;
  const has = (name: unknown) => typeof name === "string" && models.some((m) => m === name || m === `${name}:latest`);
  return startLocalServer((request: RecordedRequest, response) => {
    const body = (request.body ?? {}) as { model?: string; input?: string[] };
    if (request.path === "/api/tags" && request.method === "GET") {
      if (options.tagsHang) return;
      return sendJson(response, 200, { models: models.map((name) => ({ name, model: name, size: 274302450, digest: "0a109f422b47", details: {} })) });
    }
    if (request.path === "/api/show" && request.method === "POST") {
      if (!has(body.model)) return sendJson(response, 404, { error: `model '${body.model}' not found` });
      return sendJson(response, 200, { model_info: { "general.architecture": "nomic-bert", "nomic-bert.embedding_length": dimensions } });
    }
    if (request.path === "/api/embed" && request.method === "POST") {
      if (options.embed === "hang") return;
      if (typeof options.embed === "number") return sendJson(response, options.embed, { error: "simulated failure" });
      if (!has(body.model)) return sendJson(response, 404, { error: `model "${body.model}" not found, try pulling it first` });
      const input = body.input ?? [];
      if (options.failWhen?.(input)) return sendJson(response, 503, { error: "simulated outage" });
      if (options.hangWhen?.(input)) return;
      const answer = () => sendJson(response, 200, { model: body.model, embeddings: input.map((text) => fakeVector(text, dimensions)), prompt_eval_count: 10 });
      const held = options.holdWhen?.(input);
      if (held) return void held.then(answer);
      return answer();
    }
    sendJson(response, 404, { error: "not found" });
  });
}
