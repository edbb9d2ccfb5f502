import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeOllamaOptions {
  /** Default nomic-embed-text, which the daemon knows: 768 dimensions and its task prefixes. */
  model?: string;
  dimensions?: number;
  /**
   * Milliseconds before a search query's embedding is answered (one text with the query prefix),
   * as a real model takes them; 0 answers at once. Documents are always answered at once.
   */
  queryDelayMs?: number;
}

export interface FakeOllama {
  /** For OLLAMA_HOST: http://127.0.0.1:<port>. */
  host: string;
  model: string;
  dimensions: number;
  /** POST /api/embed requests and texts served so far. */
  served(): { requests: number; texts: number };
  /** Each /api/embed request: its texts, and the milliseconds it spent in this server, from its whole body to its whole answer. */
  handled(): readonly { texts: number; ms: number }[];
  close(): Promise<void>;
}

// nomic-embed-text's task prefixes, which the daemon adds: without them documents and queries share words.
const TASK_PREFIX = /^(search_document|search_query): /;
// Each word adds ±1 to this many dimensions: vectors of texts that share words are near, as with a model.
const DIMENSIONS_PER_WORD = 8;

/**
 * A stand-in for Ollama that answers in microseconds, so that a benchmark can give a daemon
 * vectors for 100k memories in seconds: GET /api/tags lists the model, POST /api/show gives its
 * size, POST /api/embed returns a hashed bag of words per text, deterministic and unit-length.
 */
export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const model = options.model ?? "nomic-embed-text";
  const dimensions = options.dimensions ?? 768;
  const embed = createBagOfWords(dimensions);
  const handling: { texts: number; ms: number }[] = [];
  let requests = 0;
  let texts = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const started = performance.now();
      const route = `${req.method ?? "GET"} ${req.url ?? "/"}`;
      try {
        if (route === "GET /api/tags") {
          return reply(res, 200, { models: [{ name: `${model}:latest`, model: `${model}:latest`, modified_at: "2025-01-01T00:00:00Z", size: 0, digest: "" }] });
        }
        if (route === "POST /api/show") {
          return reply(res, 200, { model_info: { "general.architecture": "nomic-bert", "nomic-bert.embedding_length": dimensions } });
        }
        if (route === "POST /api/embed") {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { input?: unknown };
          const inputs = typeof body.input === "string" ? [body.input] : Array.isArray(body.input) ? body.input.map(String) : [];
          // Four decimals: the JSON stays small, and the daemon scales every vector to unit length anyway.
          const rows = inputs.map((text) => `[${Array.from(embed(text), (x) => Math.round(x * 10_000) / 10_000).join(",")}]`);
          requests += 1;
          texts += inputs.length;
          handling.push({ texts: inputs.length, ms: performance.now() - started });
          const answer = () => {
            res.writeHead(200, { "content-type": "application/json" });
            res.end(`{"model":${JSON.stringify(model)},"embeddings":[${rows.join(",")}]}`);
          };
          const delay = inputs.length === 1 && inputs[0]?.startsWith("search_query: ") ? (options.queryDelayMs ?? 0) : 0;
          if (delay > 0) setTimeout(answer, delay);
          else answer();
          return;
        }
        reply(res, 404, { error: `${route} is not served by the benchmark's stand-in for Ollama` });
      } catch (error) {
        reply(res, 400, { error: error instanceof Error ? error.message : String(error) });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    host: `http://127.0.0.1:${port}`,
    model,
    dimensions,
    served: () => ({ requests, texts }),
    handled: () => handling,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/**
 * Feature hashing: every word adds ±1 to a few dimensions chosen by its hash; the sum is scaled
 * to unit length. A text without words gets a fixed direction (a zero vector would be refused).
 */
export function createBagOfWords(dimensions: number): (text: string) => Float32Array {
  const features = new Map<string, Int32Array>();
  const featuresOf = (word: string): Int32Array => {
    let found = features.get(word);
    if (!found) {
      found = new Int32Array(DIMENSIONS_PER_WORD);
      let h = fnv1a(word);
      for (let k = 0; k < DIMENSIONS_PER_WORD; k += 1) {
        h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
        // Sign and dimension in one number: +(d + 1) or -(d + 1).
        found[k] = (h & 1 ? 1 : -1) * ((h >>> 1) % dimensions + 1);
      }
      features.set(word, found);
    }
    return found;
  };
  return (text) => {
    const vector = new Float32Array(dimensions);
    for (const word of text.replace(TASK_PREFIX, "").toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
      for (const feature of featuresOf(word)) {
        const d = Math.abs(feature) - 1;
        vector[d] = (vector[d] as number) + Math.sign(feature);
      }
    }
    let norm = 0;
    for (const x of vector) norm += x * x;
    if (norm === 0) {
      vector[0] = 1;
      return vector;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let d = 0; d < dimensions; d += 1) vector[d] = (vector[d] as number) * scale;
    return vector;
  };
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
