import type { MessageInitShape } from "@bufbuild/protobuf";
import type { MemdClients } from "../clients/transport/transport.js";
import { EmbedderState } from "../gen/memd/v1/memory_service_pb.js";
import type { MemorySchema } from "../gen/memd/v1/memory_pb.js";

// Small batches: a few hundred memories load in well under a second either way, and a failing
// memory is easier to find in a batch of 100.
const IMPORT_BATCH = 100;
const POLL_EVERY_MS = 1000;
const REPORT_EVERY_MS = 5000;

/** Imports the memories through AdminService.Import and checks that every one was created. */
export async function importMemories(
  admin: MemdClients["admin"],
  memories: readonly MessageInitShape<typeof MemorySchema>[],
): Promise<number> {
  const started = performance.now();
  for (let done = 0; done < memories.length; done += IMPORT_BATCH) {
    const batch = memories.slice(done, done + IMPORT_BATCH);
    const res = await admin.import({ memories: batch });
    if (res.created !== batch.length) {
      throw new Error(`Import created ${res.created} of ${batch.length} memories (${res.updated} updated, ${res.unchanged} unchanged): is MEMD_HOME fresh?`);
    }
  }
  const stats = await admin.stats({});
  if (Number(stats.total) !== memories.length) throw new Error(`memd holds ${stats.total} memories after importing ${memories.length}`);
  return (performance.now() - started) / 1000;
}

export interface EmbeddingWait {
  provider: string;
  model: string;
  dimensions: number;
  /** The embedder's state when the wait ended. */
  state: string;
  pendingAtStart: number;
  pendingAtEnd: number;
  seconds: number;
  timedOut: boolean;
}

/**
 * Polls AdminService.Stats every `pollEveryMs` until the embedding queue is empty or `timeoutMs`
 * passes, reporting progress through `progress`. With embeddings off there is nothing to wait for.
 */
export async function waitForEmbeddings(
  admin: MemdClients["admin"],
  timeoutMs: number,
  progress: (line: string) => void,
  pollEveryMs: number = POLL_EVERY_MS,
): Promise<EmbeddingWait> {
  const started = performance.now();
  let stats = await admin.stats({});
  const pendingAtStart = Number(stats.embedder?.queueDepth ?? 0n);
  let lastReportedAt = 0;
  for (;;) {
    const embedder = stats.embedder;
    const pending = Number(embedder?.queueDepth ?? 0n);
    const elapsed = performance.now() - started;
    const result = (timedOut: boolean): EmbeddingWait => ({
      provider: embedder?.provider ?? "unknown",
      model: embedder?.model ?? "",
      dimensions: embedder?.dimensions ?? 0,
      state: EmbedderState[embedder?.state ?? EmbedderState.UNSPECIFIED]?.toLowerCase() ?? "unknown",
      pendingAtStart,
      pendingAtEnd: pending,
      seconds: elapsed / 1000,
      timedOut,
    });
    if (!embedder || embedder.provider === "none") {
      progress(`embeddings are off (${embedder?.reason ?? "no embedder status"}): only keyword search can be measured`);
      return result(false);
    }
    if (pending === 0) return result(false);
    if (elapsed >= timeoutMs) {
      progress(
        `gave up waiting for embeddings after ${(elapsed / 1000).toFixed(0)} s: ${pending} of ${pendingAtStart} memories still queued` +
          `${embedder.lastError ? `; last error: ${embedder.lastError}` : ""}`,
      );
      return result(true);
    }
    const done = pendingAtStart - pending;
    const rate = elapsed > 0 ? (done / elapsed) * 1000 : 0;
    // A line every few seconds, moving or not (a stall shows), however often the queue is polled.
    if (elapsed - lastReportedAt >= REPORT_EVERY_MS) {
      lastReportedAt = elapsed;
      progress(
        `embedding with ${embedder.provider} ${embedder.model}: ${done}/${pendingAtStart} done (${rate.toFixed(0)}/s)` +
          `${embedder.state === EmbedderState.FAILING ? `, failing: ${embedder.lastError}` : ""}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollEveryMs));
    stats = await admin.stats({});
  }
}
