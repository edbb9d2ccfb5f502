/** Whether a model that memd loads itself is in memory, and how its loads went (Health shows it). */
export interface ModelResidency {
  /** unloaded: not in memory (not needed yet, or idle past its keep-alive); it loads on the next call. */
  state: "unloaded" | "loading" | "loaded" | "failed";
  /** Why the last load failed; empty once a load succeeds. */
  loadError: string;
  /** Loads that failed in a row; the work waiting for them is tried again after 1 s, 2 s, 4 s... */
  failedLoads: number;
}

/**
 * How long a model that is heavy to keep (the full local model, an ONNX model) stays loaded
 * with nothing to do: Ollama's default keep_alive. The next call loads it again (a few seconds);
 * a search that comes meanwhile waits for its vector as long as it would for a slow embedder.
 */
export const DEFAULT_KEEP_ALIVE_MS = 5 * 60_000;

/** The record an embedder keeps of its model's loads. */
export class ModelLoads {
  private state: ModelResidency["state"] = "unloaded";
  private loadError = "";
  private failedLoads = 0;

  loading(): void {
    if (this.state !== "loaded") this.state = "loading";
  }

  loaded(): void {
    this.state = "loaded";
    this.loadError = "";
    this.failedLoads = 0;
  }

  failed(message: string): void {
    this.state = "failed";
    this.loadError = message;
    this.failedLoads += 1;
  }

  /** The model left memory (idle, or its thread stopped); a failed load stays on record until one succeeds. */
  unloaded(): void {
    if (this.state !== "failed") this.state = "unloaded";
  }

  residency(): ModelResidency {
    return { state: this.state, loadError: this.loadError, failedLoads: this.failedLoads };
  }
}
