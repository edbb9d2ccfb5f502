/**
 * Finds the active memories a memory being written may contradict: the memories of its project
 * (and global) filed under the keys of its claims (claim-index.ts: the same slot, setting, port,
 * number of the same thing, location, name), the rarest keys first, and those holding a phrase it
 * says is gone (a keyword search, for the few memories that say one); then the pure judge on
 * each. Synchronous, on memory, so that Save can answer with what it found.
 *
 * The index is kept by the caller: memories changed (from the change feed) are filed again a few
 * at a time off the request's path (indexStep), and every active memory is filed in the same steps
 * once after start; a memory Save just stored is filed at once (file).
 */
import { type MemoryRecord, localProjects } from "../memory/memory.js";
import type { MemoryRecords, MemorySearch } from "../store/store.js";
import { ClaimIndex } from "./claim-index.js";
import { claimKeys, gonePhrases, lookupKeys } from "./claim-keys.js";
import { type MemoryClaims, readClaims } from "./claims.js";
import { type ContradictionFinding, judgeContradiction, LIKELY_CONTRADICTION, POSSIBLE_CONTRADICTION } from "./judge.js";

/** An older memory and what the judge found between it and the one written. */
export interface DetectedContradiction {
  other: MemoryRecord;
  /** Judged with the newer memory first: the one written, unless `other` is newer (an import of older memories). */
  finding: ContradictionFinding;
  otherIsNewer: boolean;
}

/** Whether `a` was made after `b` (the id decides a tie): a contradiction's newer side. */
export function isNewer(a: Pick<MemoryRecord, "createdAt" | "id">, b: Pick<MemoryRecord, "createdAt" | "id">): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

export interface Detection {
  /** At or above LIKELY_CONTRADICTION, strongest first. */
  likely: DetectedContradiction[];
  /** Between POSSIBLE_CONTRADICTION and LIKELY_CONTRADICTION: for a language model to judge; empty unless one is configured (judgesPossible). */
  possible: DetectedContradiction[];
}

export interface ContradictionDetector {
  /**
   * With `edited`, the memory is the newer of every pair whatever its age: an update's text is the
   * last thing said. Otherwise the one made later is (an import may bring in the older one).
   */
  detect(memory: MemoryRecord, edited?: boolean): Detection;
  /** A memory's claims (read once per id and update time, for the most recently used). */
  claimsOf(memory: MemoryRecord): MemoryClaims;
  /** Files a memory just stored, so that the next write is judged against it. */
  file(memory: MemoryRecord): void;
  /** Notes memories changed by a write, to be filed again by indexStep. */
  changed(ids: Iterable<string>): void;
  /**
   * Files changed memories, and the next of those stored before start, until `until`
   * (performance.now()); false once none wait. A changed memory that `filedElsewhere` names is
   * left to its caller, who files it (an imported memory, filed as it is checked).
   */
  indexStep(until: number, filedElsewhere: (id: string) => boolean): boolean;
  /** Whether memories wait to be filed. */
  readonly indexing: boolean;
}

/** Memories judged per write at most: each one's claims are read (or taken from the cache). */
const CANDIDATES = 5;
/** Memories holding a phrase the written one says is gone, judged besides. */
const GONE_CANDIDATES = 6;
/** Reported at most, per write. */
const MAX_FOUND = 3;
/** Claims of recently judged memories: a project's memories are judged again and again. */
const CACHED_CLAIMS = 4096;
/** Active memories read per page while every one is filed after start. */
const FILE_PAGE = 20;

type DetectorStore = Pick<MemorySearch, "searchKeywordScopes"> & Pick<MemoryRecords, "get" | "list">;

export interface DetectorOptions {
  /** Whether possible contradictions are wanted (a language model judges them); without one, only likely ones are read and reported. */
  judgesPossible: boolean;
}

/** A memory's claims, with the text they were read from (its update time and length) and what the judge asks besides. */
interface CachedClaims {
  id: string;
  updatedAt: number;
  length: number;
  createdAt: number;
  kind: MemoryRecord["kind"];
  claims: MemoryClaims;
}

export function createContradictionDetector(store: DetectorStore, options: DetectorOptions): ContradictionDetector {
  // By id, with the update time and length of the text they were read from, and what the judge
  // asks of the memory besides its claims. A memory the change feed names (changed) is read from
  // the store until it is filed again, so that one filed and not changed since can be judged from
  // here unread.
  const cache = new Map<string, CachedClaims>();
  const cachedEntry = (id: string): CachedClaims | undefined => {
    const hit = cache.get(id);
    if (!hit) return undefined;
    // Most recently used last, so the oldest entry is the first to go.
    cache.delete(id);
    cache.set(id, hit);
    return hit;
  };
  const entryOf = (memory: MemoryRecord): CachedClaims => {
    const hit = cache.get(memory.id);
    if (hit?.updatedAt === memory.updatedAt && hit.length === memory.content.length) return cachedEntry(memory.id) as CachedClaims;
    const entry = { id: memory.id, updatedAt: memory.updatedAt, length: memory.content.length, createdAt: memory.createdAt, kind: memory.kind, claims: readClaims(memory.content) };
    cache.set(memory.id, entry);
    if (cache.size > CACHED_CLAIMS) cache.delete(cache.keys().next().value as string);
    return entry;
  };
  const claimsOf = (memory: MemoryRecord): MemoryClaims => entryOf(memory).claims;

  const index = new ClaimIndex();
  const pending = new Set<string>();
  // The id the filing of every memory stored before start has reached (newest first); null once done.
  let filedDownTo: string | null = "";
  const fileAsStored = (memory: MemoryRecord | undefined, id: string) => {
    if (memory && memory.status === "active" && judged(memory.kind)) index.set(id, memory.project, claimKeys(claimsOf(memory)));
    else index.delete(id);
  };

  return {
    claimsOf,

    file(memory) {
      fileAsStored(memory, memory.id);
    },

    changed(ids) {
      // Claims stay cached: a memory Save just filed is announced here too, and its claims are
      // still those of its text (claimsOf checks), so filing it again reads none.
      for (const id of ids) pending.add(id);
    },

    get indexing() {
      return pending.size > 0 || filedDownTo !== null;
    },

    indexStep(until, filedElsewhere) {
      for (const id of pending) {
        if (performance.now() > until) return true;
        pending.delete(id);
        if (!filedElsewhere(id)) fileAsStored(store.get(id), id);
      }
      while (filedDownTo !== null) {
        if (performance.now() > until) return true;
        const page = store.list({ kinds: [], statuses: ["active"] }, { afterId: filedDownTo, limit: FILE_PAGE });
        for (const memory of page) {
          // A memory changed since start is filed from the change feed, as it is now.
          if (!pending.has(memory.id)) fileAsStored(memory, memory.id);
          filedDownTo = memory.id;
          if (performance.now() > until) return true;
        }
        if (page.length < FILE_PAGE) filedDownTo = null;
      }
      return pending.size > 0;
    },

    detect(memory, edited = false) {
      const none: Detection = { likely: [], possible: [] };
      if (!judged(memory.kind)) return none;
      const claims = claimsOf(memory);
      // Nothing named, nothing to contradict.
      if (!claims.clauses.some((c) => c.mentions.length > 0 || c.gone.length > 0)) return none;
      const projects = localProjects(memory.project);
      const ids = new Set(index.lookup(lookupKeys(claims), projects, CANDIDATES));
      // What the memory says is gone is held in other words than any key: a phrase search for those few words.
      const filter = { projects, kinds: [], statuses: ["active" as const] };
      for (const phrase of gonePhrases(claims)) {
        const [hits = []] = store.searchKeywordScopes(phrase, [{ filter, limit: GONE_CANDIDATES }]);
        for (const hit of hits) ids.add(hit.facets.id);
      }
      const judgeable = (other: MemoryRecord) => other.status === "active" && projects.includes(other.project);
      const found: DetectedContradiction[] = [];
      for (const id of ids) {
        if (id === memory.id) continue;
        // A memory is read only when its claims are not at hand, or when what it contradicts is reported.
        const fresh = cache.has(id) && !pending.has(id) ? undefined : store.get(id);
        if (fresh && !judgeable(fresh)) continue;
        const other = fresh ? entryOf(fresh) : cachedEntry(id);
        if (!other || !judged(other.kind) || (memory.kind === "episode" && other.kind === "episode")) continue;
        let finding = judgeContradiction(claims, other.claims);
        if (!finding || finding.score < POSSIBLE_CONTRADICTION) continue;
        // The judge reads the newer memory first ("moved to Auth0" after "is Clerk"): an imported memory may be the older one.
        const otherIsNewer = !edited && isNewer(other, memory);
        if (otherIsNewer) finding = judgeContradiction(other.claims, claims);
        if (!finding || finding.score < (options.judgesPossible ? POSSIBLE_CONTRADICTION : LIKELY_CONTRADICTION)) continue;
        // Filed while active in one of these projects and not changed since, unless the change is not announced yet.
        const record = fresh ?? store.get(id);
        if (!record || !judgeable(record)) continue;
        found.push({ other: record, finding, otherIsNewer });
      }
      found.sort((a, b) => b.finding.score - a.finding.score || a.other.id.localeCompare(b.other.id));
      return {
        likely: found.filter((f) => f.finding.score >= LIKELY_CONTRADICTION).slice(0, MAX_FOUND),
        possible: found.filter((f) => f.finding.score < LIKELY_CONTRADICTION).slice(0, MAX_FOUND),
      };
    },
  };
}

/** Traces record what a command printed; they claim nothing about how things are. */
function judged(kind: MemoryRecord["kind"]): boolean {
  return kind !== "trace";
}

/** Whether the detector finds the same in two versions of a memory: it reads their content, kind and project, nothing else. */
export function judgedAlike(a: MemoryRecord, b: MemoryRecord): boolean {
  return a.content === b.content && a.kind === b.kind && a.project === b.project;
}
