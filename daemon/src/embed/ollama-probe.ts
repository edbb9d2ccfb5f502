import { createOllamaClient } from "./ollama-client.js";
import { knownOllamaModel, sameOllamaModel } from "./ollama-models.js";
import { failureDetail } from "./http-failure.js";

export type OllamaProbe =
  | { reachable: false; /** Why not, e.g. "connection refused". */ detail: string }
  | {
      reachable: true;
      hasModel: boolean;
      /** The embedding size, from memd's table or `ollama show`; undefined when neither says. */
      dimensions: number | undefined;
    };

/**
 * Asks Ollama, quickly, whether it runs and has the model (GET /api/tags), and for a model memd
 * does not know, its embedding size (POST /api/show). Never throws.
 */
export async function probeOllama(host: string, model: string, timeoutMs: number): Promise<OllamaProbe> {
  const client = createOllamaClient(host, timeoutMs, new AbortController().signal);
  let names: string[];
  try {
    const { models } = await client.list();
    names = models.map((m) => m.name);
  } catch (error) {
    return { reachable: false, detail: failureDetail(error, timeoutMs) };
  }
  const hasModel = names.some((name) => sameOllamaModel(name, model));
  let dimensions = knownOllamaModel(model)?.dimensions;
  if (hasModel && dimensions === undefined) dimensions = await showDimensions(client, model);
  return { reachable: true, hasModel, dimensions };
}

async function showDimensions(client: ReturnType<typeof createOllamaClient>, model: string): Promise<number | undefined> {
  try {
    const { model_info: info } = await client.show({ model });
    // model_info is JSON, keyed by architecture: {"nomic-bert.embedding_length": 768, ...}.
    for (const [key, value] of Object.entries(info as unknown as Record<string, unknown>)) {
      if (key.endsWith(".embedding_length") && typeof value === "number") return value;
    }
  } catch {
    // An old Ollama without model_info: the caller asks for the dimensions option instead.
  }
  return undefined;
}
