import { isLoopbackHost } from "../config/config.js";
import { type Embedder, EmbedderSetupError, EmbeddingError, type EmbeddingSpace } from "./embedder.js";
import { deadline, retryAfterMs, unreachable } from "./http-failure.js";
import { chunksOf, prepareTexts } from "./prepare-texts.js";
import { toUnitVectors } from "./unit-vectors.js";

export interface OpenAiEmbedderOptions {
  /** OPENAI_API_KEY. Sent only to `baseUrl`, never logged. */
  apiKey: string;
  /** Default https://api.openai.com; a trailing /v1 is accepted. Plain http only to loopback (tests, local proxies). */
  baseUrl?: string;
  /** Default text-embedding-3-small. */
  model?: string;
  /** Required for models memd does not know (OpenAI-compatible servers). */
  dimensions?: number;
  /** Per request. Default 30 000. */
  timeoutMs?: number;
  /** Texts per request (OpenAI accepts up to 2048). Default 128. */
  batchSize?: number;
  /** Default 6000. */
  maxInputChars?: number;
}

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com";
export const DEFAULT_OPENAI_MODEL = "text-embedding-3-small";

const KNOWN_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

// The models take 8191 tokens. English runs about 4 characters a token, but CJK text and
// symbols run closer to 1, and an over-long input fails the whole batch: 6000 stays under.
const DEFAULT_MAX_INPUT_CHARS = 6000;

/** Embeds with OpenAI's /v1/embeddings over HTTPS. Used only when the user chooses it. */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  if (!options.apiKey.trim()) throw new EmbedderSetupError("OpenAI embeddings need an API key: set OPENAI_API_KEY");
  const baseUrl = checkedBaseUrl(options.baseUrl ?? DEFAULT_OPENAI_BASE_URL);
  const endpoint = `${baseUrl}/v1/embeddings`;
  const model = options.model ?? DEFAULT_OPENAI_MODEL;
  const dimensions = options.dimensions ?? KNOWN_DIMENSIONS[model] ?? unknownDimensions(model);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const batchSize = options.batchSize ?? 128;
  const maxInputChars = options.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS;
  const closing = new AbortController();
  const space: EmbeddingSpace = { provider: "openai", model, dimensions };

  async function embedBatch(input: string[]): Promise<Float32Array[]> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint, {
        method: "POST",
        headers: { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model, input, encoding_format: "float" }),
        signal: deadline(timeoutMs, closing.signal),
      });
      text = await response.text();
    } catch (error) {
      if (closing.signal.aborted) throw new EmbeddingError("the openai embedder was closed", false, { cause: error });
      throw unreachable(error, `OpenAI at ${baseUrl}`, timeoutMs);
    }
    const body = parseJson(text);
    if (!response.ok) throw openAiFailure(response, body, baseUrl, model);
    if (body === undefined) throw new EmbeddingError(`OpenAI at ${baseUrl} answered ${response.status} with a body that is not JSON`, true);
    const data = (body as { data?: unknown } | undefined)?.data;
    const rows = Array.isArray(data) ? [...(data as { index?: number; embedding?: unknown }[])] : undefined;
    // The API documents `index` as the input's position; order by it rather than trust the order of `data`.
    rows?.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return toUnitVectors(
      rows?.map((row) => row.embedding),
      { count: input.length, dimensions, source: `OpenAI model ${model}` },
    );
  }

  return {
    space,
    maxInputChars,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      if (closing.signal.aborted) throw new EmbeddingError("the openai embedder was closed", false);
      const vectors: Float32Array[] = [];
      for (const batch of chunksOf(prepareTexts(texts, maxInputChars), batchSize)) vectors.push(...(await embedBatch(batch)));
      return vectors;
    },
    async close(): Promise<void> {
      closing.abort();
    },
  };
}

function unknownDimensions(model: string): never {
  throw new EmbedderSetupError(`memd does not know how many dimensions the OpenAI model ${model} has: set the dimensions`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Refuses to send the API key in clear text over the network. */
function checkedBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new EmbedderSetupError(`the OpenAI base URL "${value}" is not a URL`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    throw new EmbedderSetupError(`the OpenAI base URL ${url.origin} must use https, so that the API key is not sent in clear text`);
  }
  return url.href.replace(/\/+$/, "").replace(/\/v1$/, "");
}

function openAiFailure(response: Response, body: unknown, baseUrl: string, model: string): EmbeddingError {
  const { status } = response;
  const error = (body as { error?: { message?: unknown; code?: unknown } } | undefined)?.error;
  const detail = typeof error?.message === "string" ? `: ${error.message}` : "";
  const where = `${status} from ${baseUrl}`;
  if (status === 401) return new EmbeddingError(`OPENAI_API_KEY is invalid or revoked (${where})`, false);
  if (status === 429 && error?.code === "insufficient_quota") {
    return new EmbeddingError(`the OpenAI account has no quota left: add credit or choose another embedder (${where})`, false);
  }
  if (status === 429 || status >= 500) {
    return new EmbeddingError(`OpenAI is ${status === 429 ? "rate limiting" : "failing"} (${where})${detail}`, true, {
      retryAfterMs: retryAfterMs(response.headers, Date.now()),
    });
  }
  if (status === 404) return new EmbeddingError(`OpenAI does not offer the model ${model} to this key (${where})${detail}`, false);
  return new EmbeddingError(`OpenAI refused the request (${where})${detail}`, false);
}
