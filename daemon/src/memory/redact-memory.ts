import { redact } from "../redact/redact-secrets.js";
import { refuseSecretIdentifiers } from "./identifier-secrets.js";
import type { MemoryRecord } from "./memory.js";

/**
 * Every text a memory carries passes through the redactor before it is stored: secrets an
 * agent pasted into a note must never reach the database, its WAL, an export or a log. Its
 * identifiers (session, agent, project) are refused instead when they hold a secret, since a
 * redacted id would stop matching the caller's; see `refuseSecretIn`. Every write of a memory
 * (Save, Checkpoint, Update, Supersede, Import, CaptureTranscript) comes through here, and so
 * do the session ids of its events and the project names of project_versions, which are
 * copied from the memory.
 */
export function redactMemory(memory: MemoryRecord): MemoryRecord {
  refuseSecretIdentifiers(memory);
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
