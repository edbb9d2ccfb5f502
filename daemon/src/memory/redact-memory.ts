import { redact } from "../redact/redact-secrets.js";
import type { MemoryRecord } from "./memory.js";

/**
 * Every text a memory carries passes through the redactor before it is stored: secrets an
 * agent pasted into a note must never reach the database, its WAL, an export or a log.
 */
export function redactMemory(memory: MemoryRecord): MemoryRecord {
  return {
    ...memory,
    content: redact(memory.content),
    problem: redact(memory.problem),
    solution: redact(memory.solution),
    concepts: memory.concepts.map(redact),
    files: memory.files.map(redact),
    tags: memory.tags.map(redact),
    archiveReason: redact(memory.archiveReason),
  };
}
