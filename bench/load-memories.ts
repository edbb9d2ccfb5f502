import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { monotonicFactory } from "ulid";
import type { MemorySchema } from "../gen/memd/v1/memory_pb.js";
import type { MemdClients } from "../clients/transport/transport.js";
import { mulberry32 } from "./seeded-random.js";
import type { MemoryDraft } from "./synthetic-memories.js";

/** AdminService.Import takes at most this many memories per request. */
const IMPORT_BATCH = 1000;
// Imported memories are spread five minutes apart from a fixed start, so ids and times
// are the same on every run.
const FIRST_CREATE_MS = Date.UTC(2025, 0, 1);
const SPACING_MS = 5 * 60 * 1000;

export interface MemoryLoader {
  /** Ids of every memory imported so far, oldest first. */
  readonly ids: readonly string[];
  /** Imports `count` more memories; resolves with the wall time it took. */
  load(count: number): Promise<{ count: number; seconds: number }>;
}

/**
 * Loads memories through Import rather than Save: one transaction and one fsync per thousand
 * memories instead of per memory, which makes 100k memories a matter of seconds.
 */
export function createMemoryLoader(
  nextMemory: () => MemoryDraft,
  admin: MemdClients["admin"],
  idSeed: number,
): MemoryLoader {
  const ids: string[] = [];
  const newId = monotonicFactory(mulberry32(idSeed));

  const batch = (size: number): MessageInitShape<typeof MemorySchema>[] =>
    Array.from({ length: size }, () => {
      const createMs = FIRST_CREATE_MS + ids.length * SPACING_MS;
      const id = newId(createMs);
      ids.push(id);
      const draft = nextMemory();
      return { id, createTime: timestampFromMs(createMs), importance: 3, confidence: 0.5, ...draft };
    });

  return {
    ids,
    async load(count) {
      const started = performance.now();
      let pending: Promise<unknown> | null = null;
      for (let done = 0; done < count; done += IMPORT_BATCH) {
        // The next batch is generated while the daemon writes this one, but sent only once it has
        // answered: with two requests in flight, the second connection sat idle while the daemon
        // wrote, and when a batch took longer than the daemon's keep-alive (5 s, on a loaded
        // machine) the next request went out on the connection the daemon was closing (ECONNRESET).
        const memories = batch(Math.min(IMPORT_BATCH, count - done));
        if (pending) await pending;
        pending = admin.import({ memories }).then((res) => {
          if (res.created !== memories.length) {
            throw new Error(`Import created ${res.created} of ${memories.length} memories (${res.updated} updated, ${res.unchanged} unchanged)`);
          }
        });
      }
      if (pending) await pending;
      return { count, seconds: (performance.now() - started) / 1000 };
    },
  };
}
