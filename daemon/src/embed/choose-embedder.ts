import { type EmbedderChoice, isLoopbackHost } from "../config/config.js";
import { type Embedder, EmbedderSetupError, type EmbeddingSpace } from "./embedder.js";
import { LOCAL_SPACE, type LocalEmbedderOptions, createLocalEmbedder } from "./local-embedder.js";
import { type OllamaEmbedderOptions, createOllamaEmbedder } from "./ollama-embedder.js";
import { DEFAULT_OLLAMA_HOST, DEFAULT_OLLAMA_MODEL, ollamaModelName } from "./ollama-models.js";
import { type OllamaProbe, probeOllama } from "./ollama-probe.js";
import { type OpenAiEmbedderOptions, createOpenAiEmbedder } from "./openai-embedder.js";
import { KNOWN_MODELS, knownModel } from "./known-models.js";
import { isInstalled, modelDir } from "./model-pull.js";
import { createOnnxEmbedder, loadOnnxRuntime, type OnnxEmbedderOptions } from "./onnx-embedder.js";
import { type OnnxModelSpec, readOnnxModelDir } from "./onnx-model-dir.js";
import { createAsymmetricEmbedder } from "./asymmetric-embedder.js";
import { createStaticEmbedder, isStaticModelName, loadStaticModel } from "./static-embedder.js";

/**
 * "auto" picks Ollama when it answers on this machine with the model, else an installed ONNX
 * model, else the static table distilled from USE-lite; never OpenAI. "local" is the full
 * USE-lite encoder; "asymmetric" embeds memories with it and queries with the static table.
 */
export type EmbedderSetting = Exclude<EmbedderChoice, "none">;

export interface ChooseEmbedderOptions {
  setting: EmbedderSetting;
  /** Where an explicit setting came from, for the reason: "MEMD_EMBEDDER=openai", "--embedder ollama". */
  settingSource?: string;
  local?: LocalEmbedderOptions;
  ollama?: OllamaEmbedderOptions;
  /** The key may be absent: it is needed, and read, only when the setting is "openai". */
  openai?: Partial<OpenAiEmbedderOptions>;
  /** Where pulled models live, and MEMD_ONNX_MODEL (a known model's name or an export's directory). */
  onnx?: OnnxEmbedderOptions & { modelsDir: string; model?: string };
  /** How long "auto" waits for Ollama's model list. Default 400. */
  probeTimeoutMs?: number;
}

export interface ChosenEmbedder {
  embedder: Embedder;
  /** Why this one, in a sentence, for Health and Stats: "ollama at http://127.0.0.1:11434 has nomic-embed-text". */
  reason: string;
}

const DEFAULT_PROBE_TIMEOUT_MS = 400;

/**
 * Picks the embedder. An explicit setting wins. Otherwise Ollama, when it answers on this
 * machine and has the model; otherwise the local model. A cloud provider is never picked by
 * itself: an API key lying in the environment must not send memories off the machine.
 * Throws EmbedderSetupError when the explicit choice cannot work (OpenAI without a key).
 */
export async function chooseEmbedder(options: ChooseEmbedderOptions): Promise<ChosenEmbedder> {
  const explicitly = `chosen explicitly by ${options.settingSource ?? `the embedder setting "${options.setting}"`}`;
  const host = options.ollama?.host ?? DEFAULT_OLLAMA_HOST;
  const model = ollamaModelName(options.ollama?.model ?? DEFAULT_OLLAMA_MODEL);
  const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;

  switch (options.setting) {
    case "static":
      return { embedder: createStaticEmbedder(loadStaticModel()), reason: `static: ${explicitly}` };
    case "local":
      return { embedder: createLocalEmbedder(options.local), reason: `local: ${explicitly}` };
    case "asymmetric":
      return {
        embedder: createAsymmetricEmbedder(createLocalEmbedder(options.local), createStaticEmbedder(loadStaticModel())),
        reason: `asymmetric (memories by the local model, queries by the static table): ${explicitly}`,
      };
    case "onnx": {
      const spec = onnxModel(options);
      if (spec === null) {
        throw new EmbedderSetupError(
          `${options.settingSource ?? "the embedder setting"} chooses an ONNX model, but none is installed: ` +
            `\`memctl models pull ${KNOWN_MODELS[0]?.name}\` downloads one, or set MEMD_ONNX_MODEL to the directory of a sentence-transformers ONNX export`,
        );
      }
      return { embedder: createOnnxEmbedder(spec, await loadOnnxRuntime(), options.onnx), reason: `onnx ${spec.name} (${spec.dir}): ${explicitly}` };
    }
    case "openai":
      return { embedder: openAiEmbedder(options), reason: `openai: ${explicitly}` };
    case "ollama": {
      // The choice stands even when Ollama is down: its errors are retryable, and the pipeline waits.
      const probe = await probeOllama(host, model, probeTimeoutMs);
      const embedder = createOllamaEmbedder({ ...options.ollama, dimensions: options.ollama?.dimensions ?? learnt(probe) });
      return { embedder, reason: `ollama at ${host} with ${model}: ${explicitly}${explicitCaveat(probe, model)}` };
    }
    case "auto":
      break;
  }
  const local = async (why: string): Promise<ChosenEmbedder> => {
    // An installed ONNX model comes before the built-in one: a person pulled it to be used.
    try {
      const spec = onnxModel(options);
      if (spec !== null) return { embedder: createOnnxEmbedder(spec, await loadOnnxRuntime(), options.onnx), reason: `onnx ${spec.name}: installed in ${spec.dir}; ${why}` };
    } catch (error) {
      if (!(error instanceof EmbedderSetupError)) throw error;
      return builtIn(`${why}; the ONNX model cannot run: ${error.message}`, options);
    }
    return builtIn(why, options);
  };
  if (!isOnThisMachine(host)) {
    return local(`ollama at ${host} is not on this machine, so memd uses it only when chosen explicitly`);
  }
  const probe = await probeOllama(host, model, probeTimeoutMs);
  if (!probe.reachable) return local(`ollama not reachable at ${host} (${probe.detail})`);
  if (!probe.hasModel) return local(`ollama at ${host} does not have ${model} (\`ollama pull ${model}\` would make memd use it)`);
  const dimensions = options.ollama?.dimensions ?? probe.dimensions;
  if (dimensions === undefined) return local(`ollama at ${host} has ${model}, but does not say its embedding size`);
  return { embedder: createOllamaEmbedder({ ...options.ollama, dimensions }), reason: `ollama at ${host} has ${model}` };
}

/** The static table, or the full local model when the table cannot be read (a damaged install). */
function builtIn(why: string, options?: ChooseEmbedderOptions): ChosenEmbedder {
  try {
    return { embedder: createStaticEmbedder(loadStaticModel()), reason: `static: ${why}` };
  } catch (error) {
    if (!(error instanceof EmbedderSetupError)) throw error;
    return { embedder: createLocalEmbedder(options?.local), reason: `local: ${why}; ${error.message}` };
  }
}

/**
 * An embedder for an older embedding space, so that it can keep answering searches while a new
 * space builds; null when that space's provider cannot run now. OpenAI serves only while it is
 * still the chosen provider: a user who moved away from the cloud does not send searches there.
 */
export async function embedderForSpace(space: EmbeddingSpace, options: ChooseEmbedderOptions): Promise<Embedder | null> {
  try {
    switch (space.provider) {
      case "local": {
        if (space.model === LOCAL_SPACE.model && space.dimensions === LOCAL_SPACE.dimensions) return createLocalEmbedder(options.local);
        if (!isStaticModelName(space.model)) return null;
        // Only the table shipped now: an older table's vectors cannot be matched by this one's queries.
        const model = loadStaticModel();
        return model.name === space.model ? createStaticEmbedder(model) : null;
      }
      case "onnx": {
        const spec = onnxModelNamed(space.model, options.onnx);
        return spec !== null && spec.dimensions === space.dimensions ? createOnnxEmbedder(spec, await loadOnnxRuntime(), options.onnx) : null;
      }
      case "ollama": {
        const host = options.ollama?.host ?? DEFAULT_OLLAMA_HOST;
        const probe = await probeOllama(host, space.model, options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
        if (!probe.reachable || !probe.hasModel) return null;
        return createOllamaEmbedder({ ...options.ollama, model: space.model, dimensions: space.dimensions });
      }
      case "openai":
        if (options.setting !== "openai") return null;
        return createOpenAiEmbedder({ ...options.openai, apiKey: options.openai?.apiKey ?? "", model: space.model, dimensions: space.dimensions });
      default:
        return null;
    }
  } catch (error) {
    if (error instanceof EmbedderSetupError) return null;
    throw error;
  }
}

/**
 * The ONNX model to run: MEMD_ONNX_MODEL (a known model, which must be installed, or an
 * export's directory), else the first known model that is installed; null when there is none.
 */
function onnxModel(options: ChooseEmbedderOptions): OnnxModelSpec | null {
  const onnx = options.onnx;
  if (!onnx) return null;
  if (onnx.model !== undefined) {
    const known = knownModel(onnx.model);
    if (!known) return readOnnxModelDir(onnx.model);
    if (!isInstalled(onnx.modelsDir, known)) throw new EmbedderSetupError(`MEMD_ONNX_MODEL=${onnx.model} is not installed: run \`memctl models pull ${known.name}\``);
    return readOnnxModelDir(modelDir(onnx.modelsDir, known), known);
  }
  const installed = KNOWN_MODELS.find((m) => isInstalled(onnx.modelsDir, m));
  return installed ? readOnnxModelDir(modelDir(onnx.modelsDir, installed), installed) : null;
}

/** An older space's ONNX model: MEMD_ONNX_MODEL's export when it is that model, else the installed known model of that name. */
function onnxModelNamed(name: string, onnx: ChooseEmbedderOptions["onnx"]): OnnxModelSpec | null {
  if (!onnx) return null;
  const configured = onnx.model !== undefined && !knownModel(onnx.model) ? readOnnxModelDir(onnx.model) : null;
  if (configured?.name === name) return configured;
  const known = knownModel(name);
  return known && isInstalled(onnx.modelsDir, known) ? readOnnxModelDir(modelDir(onnx.modelsDir, known), known) : null;
}

function openAiEmbedder(options: ChooseEmbedderOptions): Embedder {
  const apiKey = options.openai?.apiKey?.trim();
  if (!apiKey) {
    const source = options.settingSource ?? "the embedder setting";
    throw new EmbedderSetupError(`${source} chooses OpenAI embeddings, but no API key is set: set OPENAI_API_KEY, or choose local or ollama`);
  }
  return createOpenAiEmbedder({ ...options.openai, apiKey });
}

function learnt(probe: OllamaProbe): number | undefined {
  return probe.reachable ? probe.dimensions : undefined;
}

/** What the user should know about an explicit Ollama choice that cannot embed right now. */
function explicitCaveat(probe: OllamaProbe, model: string): string {
  if (!probe.reachable) return `; not reachable right now (${probe.detail}), embeddings wait until it answers`;
  if (!probe.hasModel) return `; it does not have the model yet: run \`ollama pull ${model}\``;
  return "";
}

/** OLLAMA_HOST may come without a scheme ("127.0.0.1:11434"), as the ollama CLI accepts it. */
function isOnThisMachine(host: string): boolean {
  try {
    return isLoopbackHost(new URL(/^[a-z]+:\/\//i.test(host) ? host : `http://${host}`).hostname);
  } catch {
    return false;
  }
}
