import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  type ContradictionSchema, ContradictionResolution as PbResolution, ContradictionSource as PbSource, ContradictionStatus as PbStatus,
} from "../../../gen/memd/v1/contradiction_pb.js";
import { InvalidInputError } from "../errors.js";
import type { ContradictionRecord, ContradictionResolution, ContradictionSource, MemoryRecords } from "../store/store.js";
import { memoryToPb, timeToPb } from "./convert.js";

/** Translation of contradictions between the wire and the store, with both memories read as they are now. */

const SOURCES: Record<ContradictionSource, PbSource> = {
  save: PbSource.SAVE,
  checkpoint: PbSource.CHECKPOINT,
  import: PbSource.IMPORT,
  sweep: PbSource.SWEEP,
  embedding: PbSource.EMBEDDING,
  update: PbSource.UPDATE,
  vault: PbSource.VAULT,
};
const RESOLUTIONS: Record<ContradictionResolution, PbResolution> = {
  kept_newer: PbResolution.KEPT_NEWER,
  kept_older: PbResolution.KEPT_OLDER,
  compatible: PbResolution.COMPATIBLE,
};

export function contradictionToPb(record: ContradictionRecord, store: Pick<MemoryRecords, "get">): MessageInitShape<typeof ContradictionSchema> {
  const memory = store.get(record.memoryId);
  const other = store.get(record.otherId);
  return {
    id: record.id,
    memory: memory ? memoryToPb(memory) : undefined,
    other: other ? memoryToPb(other) : undefined,
    foundTime: timeToPb(record.foundAt),
    source: SOURCES[record.via],
    detector: record.detector,
    score: record.score,
    subject: record.subject,
    newerSays: record.newerSays,
    olderSays: record.olderSays,
    status: record.status === "open" ? PbStatus.OPEN : PbStatus.SETTLED,
    resolution: record.resolution === "" ? PbResolution.UNSPECIFIED : RESOLUTIONS[record.resolution],
    settleTime: timeToPb(record.settledAt),
  };
}

export function resolutionFromPb(value: PbResolution): ContradictionResolution {
  const found = Object.entries(RESOLUTIONS).find(([, pb]) => pb === value)?.[0] as ContradictionResolution | undefined;
  if (found === undefined) {
    throw new InvalidInputError("resolution must say which memory holds: kept_newer, kept_older or compatible (both hold)");
  }
  return found;
}
