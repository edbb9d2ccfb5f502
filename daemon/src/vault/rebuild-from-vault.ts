import { setImmediate as nextTurn } from "node:timers/promises";
import { OWN } from "../memory/author.js";
import { validateImported } from "../memory/imported-memory.js";
import type { MemoryEvent, MemoryRecord } from "../memory/memory.js";
import type { MemoryLimits } from "../memory/validate.js";
import type { ImportCounts, MemoryRecords } from "../store/store.js";
import type { VaultStore } from "../store/vault-store.js";
import { isKindFolderName } from "./file-name.js";
import { parseMemoryFile, textHash } from "./memory-file.js";
import { maxVaultFileBytes, VaultFiles } from "./vault-files.js";
import { LINKS_REFUSED } from "./vault-folders.js";

/** A file the rebuild could not use. */
export interface VaultProblem {
  path: string;
  line: number;
  reason: string;
}

export interface RebuildOutcome extends ImportCounts {
  files: number;
  events: number;
  problems: VaultProblem[];
}

/** Memories stored per transaction; the event loop turns between batches, so requests are answered meanwhile. */
const BATCH = 500;
const MAX_PROBLEMS = 1000;

/** True when the vault holds at least one memory file (a start-up with no database rebuilds from it then). */
export function vaultHasFiles(dir: string): boolean {
  for (const entry of new VaultFiles(dir, 0).entries(isKindFolderName, () => false)) if (entry.kind === "file") return true;
  return false;
}

/**
 * Stores every memory the vault's files hold, exactly as they hold it, with its history, and
 * records each file as the one its memory was read from (so that its name stays). Each memory
 * is checked and redacted as Import checks one, so a secret typed into a file is not stored. A
 * file memd cannot parse or check, or one without an id (not written by memd), is reported and
 * left as it is.
 * Fields a file lacks take the defaults a new memory would have; the usage counters, which
 * files never hold, start again at zero. No link in the vault is followed (see VaultFiles): a
 * link at a memory's file or a kind's folder is reported, and nothing is read through it.
 */
export async function rebuildFromVault(dir: string, store: MemoryRecords, vault: VaultStore, limits: MemoryLimits): Promise<RebuildOutcome> {
  const outcome: RebuildOutcome = { files: 0, created: 0, updated: 0, unchanged: 0, events: 0, problems: [] };
  const problem = (p: VaultProblem) => {
    if (outcome.problems.length < MAX_PROBLEMS) outcome.problems.push(p);
  };
  let batch: { memory: MemoryRecord; history: MemoryEvent[]; path: string; hash: string }[] = [];
  const flush = async () => {
    const counts = store.importMany(batch.map((b) => b.memory));
    outcome.created += counts.created;
    outcome.updated += counts.updated;
    outcome.unchanged += counts.unchanged;
    outcome.events += store.importEvents(batch.flatMap((b) => b.history));
    vault.putFiles(batch.map((b) => ({ memoryId: b.memory.id, path: b.path, hash: b.hash })));
    batch = [];
    await nextTurn();
  };
  const seen = new Map<string, string>();
  const files = new VaultFiles(dir, maxVaultFileBytes(limits.maxContentBytes));
  for (const entry of files.entries(isKindFolderName, () => false)) {
    const relative = entry.path;
    if (entry.kind === "temporary") continue;
    if (entry.kind === "link") {
      problem({ path: relative, line: 0, reason: `is a symbolic link to ${entry.target}: ${LINKS_REFUSED}, so it was left out of the rebuild` });
      continue;
    }
    outcome.files += 1;
    const found = files.read(relative);
    if (found.kind !== "text") {
      const why = found.kind === "link" ? `${found.link} is a symbolic link: ${LINKS_REFUSED}` : found.kind === "refused" ? found.reason : "is gone";
      problem({ path: relative, line: 0, reason: `was not read: ${why}` });
      continue;
    }
    const text = found.text;
    const parsed = parseMemoryFile(text);
    if (!parsed.ok) {
      problem({ path: relative, line: parsed.line, reason: parsed.reason });
      continue;
    }
    const id = parsed.memory.id;
    if (id === undefined || id === "") {
      problem({ path: relative, line: 1, reason: "has no id in its frontmatter, so it is not a file memd wrote: it was left out of the rebuild" });
      continue;
    }
    const other = seen.get(id);
    if (other !== undefined) {
      problem({ path: relative, line: 1, reason: `holds the same id as ${other}: only the first was read` });
      continue;
    }
    let memory: MemoryRecord;
    try {
      memory = validateImported(completeRecord({ ...parsed.memory, id }, found.mtimeMs), limits);
    } catch (error) {
      problem({ path: relative, line: 1, reason: error instanceof Error ? error.message : String(error) });
      continue;
    }
    seen.set(id, relative);
    batch.push({ memory, history: (parsed.history ?? []).map((event) => ({ ...event, memoryId: id })), path: relative, hash: textHash(text) });
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return outcome;
}

/** A memory from what its file holds, with a new memory's defaults for what it lacks. */
function completeRecord(fields: Partial<MemoryRecord> & { id: string }, fileTime: number): MemoryRecord {
  const time = Math.floor(fileTime);
  return {
    content: "",
    kind: "fact",
    project: "global",
    problem: "",
    solution: "",
    concepts: [],
    files: [],
    tags: [],
    confidence: 1,
    provenance: "human",
    tier: "regular",
    status: "active",
    pinned: false,
    importance: 3,
    valence: 0,
    intensity: 0,
    sessionId: "",
    sourceAgent: "",
    ...OWN,
    createdAt: time,
    updatedAt: time,
    expiresAt: null,
    reviewAt: null,
    supersedes: "",
    supersededBy: "",
    archiveReason: "",
    invalidAt: null,
    ...fields,
    lastAccessedAt: null,
    accessCount: 0,
  };
}
