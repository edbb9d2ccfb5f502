import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import {
  ChangeKind as PbChangeKind, ChangeService, RecordKind as PbRecordKind, type WatchChangesResponse, WatchChangesResponseSchema,
} from "../../../gen/memd/v1/change_service_pb.js";
import { ChangeQueue } from "../changes/change-queue.js";
import { InvalidInputError, UnavailableError } from "../errors.js";
import type { ChangeFeed, ChangeKind, RecordChange, RecordKind } from "../store/store.js";

/** Changes held for a watcher that has not read them yet; past this it misses them (ChangeQueue). */
const MAX_PENDING_CHANGES = 10_000;

const RECORD_KINDS = new Map<PbRecordKind, RecordKind>([
  [PbRecordKind.MEMORY, "memory"],
  [PbRecordKind.MEMORY_EVENT, "memory_event"],
  [PbRecordKind.INJECTION, "injection"],
]);
const CHANGE_KINDS = new Map<ChangeKind, PbChangeKind>([
  ["created", PbChangeKind.CREATED],
  ["updated", PbChangeKind.UPDATED],
  ["deleted", PbChangeKind.DELETED],
]);
const RECORD_KINDS_TO_PB = new Map([...RECORD_KINDS].map(([pb, kind]) => [kind, pb]));

export interface ChangeServiceDeps {
  changes: ChangeFeed;
  /** Aborts when memd begins to stop: every watch ends then, so that shutdown does not wait for them. */
  stopping: AbortSignal;
  /** The end of the viewer session a call was admitted with (a watch ends with it); undefined for a call made with the token. */
  sessionEnd: (header: Headers) => AbortSignal | undefined;
}

/** ChangeService: the store's change feed, streamed to a client through a bounded queue. */
export function createChangeService(deps: ChangeServiceDeps): ServiceImpl<typeof ChangeService> {
  return {
    async *watchChanges(req, ctx) {
      const kinds = new Set(req.kinds.map(recordKindFromPb));
      const session = deps.sessionEnd(ctx.requestHeader);
      const ended = AbortSignal.any([ctx.signal, deps.stopping, ...(session ? [session] : [])]);
      const queue = new ChangeQueue(MAX_PENDING_CHANGES);
      const stop = deps.changes.subscribe(kinds.size === 0 ? queue.push : (changes) => queue.push(changes.filter((c) => kinds.has(c.kind))));
      try {
        // Subscribed: every write committed from here on is in a later message.
        yield create(WatchChangesResponseSchema, {});
        for (;;) {
          let batch;
          try {
            batch = await queue.take(ended);
          } catch (error) {
            if (deps.stopping.aborted) throw new UnavailableError("memd is stopping: watch again once it is back", { cause: error });
            if (session?.aborted) throw new ConnectError("the viewer session ended (signed out, revoked or idle): run memctl ui to sign in again", Code.Unauthenticated);
            throw error;
          }
          yield toPb(batch.changes, batch.missed);
        }
      } finally {
        stop();
      }
    },
  };
}

function recordKindFromPb(value: PbRecordKind): RecordKind {
  const kind = RECORD_KINDS.get(value);
  if (kind === undefined) throw new InvalidInputError(`kinds has unknown value ${value}; use one of ${[...RECORD_KINDS.values()].join(", ")}`);
  return kind;
}

function toPb(changes: readonly RecordChange[], missed: boolean): WatchChangesResponse {
  return create(WatchChangesResponseSchema, {
    missed,
    changes: changes.map((c) => ({
      kind: RECORD_KINDS_TO_PB.get(c.kind) ?? PbRecordKind.UNSPECIFIED,
      id: c.id,
      change: CHANGE_KINDS.get(c.change) ?? PbChangeKind.UNSPECIFIED,
      memoryId: c.memoryId,
      project: c.project,
    })),
  });
}
