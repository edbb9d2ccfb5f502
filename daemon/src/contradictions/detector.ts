/**
 * Finds the active memories a memory being written may contradict: candidates from the keyword
 * index (the memory's own words, their synonyms, and the other members of the slots it names:
 * "Auth0" also looks for "Clerk") and from the entity graph, in its project and global; then the
 * pure judge on each. Synchronous, on the in-memory indexes, so that Save can answer with what
 * it found.
 */
import { tokenize } from "../keywords/tokenize.js";
import type { WeightedPhrase } from "../keywords/keyword-index.js";
import { localProjects, type MemoryRecord } from "../memory/memory.js";
import { extractEntities } from "../recall/entities.js";
import { expandQuery, thesaurusVocabulary } from "../recall/query-expansion.js";
import type { MemorySearch, MemoryRecords } from "../store/store.js";
import { slotAliases } from "./alternatives.js";
import { CLAIM_TEXT_CHARS, type MemoryClaims, readClaims } from "./claims.js";
import { type ContradictionFinding, judgeContradiction, LIKELY_CONTRADICTION, POSSIBLE_CONTRADICTION } from "./judge.js";

/** An older memory and what the judge found between it and the one written. */
export interface DetectedContradiction {
  other: MemoryRecord;
  finding: ContradictionFinding;
}

export interface Detection {
  /** At or above LIKELY_CONTRADICTION, strongest first. */
  likely: DetectedContradiction[];
  /** Between POSSIBLE_CONTRADICTION and LIKELY_CONTRADICTION: for a language model to judge, when one is configured. */
  possible: DetectedContradiction[];
}

export interface ContradictionDetector {
  detect(memory: MemoryRecord): Detection;
}

/** How much of a memory's text its keyword search for contradicted memories reads. */
const SEARCH_TEXT_CHARS = 500;
/** Candidates read from each source: the judge reads each one's claims, so few. */
const PER_SOURCE = 6;
/** Reported at most, per write. */
const MAX_FOUND = 3;
/** Claims of recently judged memories, by id and update time: a project's memories are judged again and again. */
const CACHED_CLAIMS = 4096;
/** The most synonym and slot phrases searched besides the memory's own words. */
const MAX_EXTRA_PHRASES = 48;

export function createContradictionDetector(store: Pick<MemorySearch, "searchKeywordScopes" | "searchGraph"> & Pick<MemoryRecords, "memoriesBySeq">): ContradictionDetector {
  const cache = new Map<string, MemoryClaims>();
  const claimsOf = (memory: MemoryRecord): MemoryClaims => {
    const key = `${memory.id}@${memory.updatedAt}`;
    const cached = cache.get(key);
    if (cached) {
      // Most recently used last, so the oldest entry is the first to go.
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }
    const claims = readClaims(memory.content);
    cache.set(key, claims);
    if (cache.size > CACHED_CLAIMS) cache.delete(cache.keys().next().value as string);
    return claims;
  };

  return {
    detect(memory) {
      const none: Detection = { likely: [], possible: [] };
      if (!judged(memory.kind)) return none;
      const claims = claimsOf(memory);
      // Nothing named, nothing to contradict.
      if (!claims.clauses.some((c) => c.mentions.length > 0 || c.gone.length > 0)) return none;
      const projects = localProjects(memory.project);
      const filter = { projects, kinds: [], statuses: ["active" as const] };
      // The search looks for what the claims were read from, not the whole of a long memory; its
      // keyword query is shorter still: a phrase search costs with every word of the query (16 ms
      // for a 2,048-character one), and a memory states its subject early.
      const text = memory.content.slice(0, CLAIM_TEXT_CHARS);
      const query = memory.content.slice(0, SEARCH_TEXT_CHARS);
      const [keyword = []] = store.searchKeywordScopes(query, [{ filter, limit: PER_SOURCE }], extraPhrases(query, claims));
      const graph = store.searchGraph({
        keys: extractEntities({ ...memory, content: text }).map((e) => e.key),
        projects,
        statuses: ["active"],
        limit: PER_SOURCE,
        hopFrom: 0,
        hopEntities: 0,
        hopDiscount: 0,
      });
      const seqs = [...new Set([...keyword, ...graph].map((hit) => hit.seq))];
      const found: DetectedContradiction[] = [];
      for (const other of store.memoriesBySeq(seqs).values()) {
        if (other.id === memory.id || !judged(other.kind) || (memory.kind === "episode" && other.kind === "episode")) continue;
        const finding = judgeContradiction(claims, claimsOf(other));
        if (finding && finding.score >= POSSIBLE_CONTRADICTION) found.push({ other, finding });
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

/** The thesaurus's synonyms of the memory's words, and the other members of every slot it names. */
function extraPhrases(content: string, claims: MemoryClaims): WeightedPhrase[] {
  const phrases = new Map<string, WeightedPhrase>();
  // The trade's thesaurus only: a general lexicon's senses would widen the search past the slot (and cost a WordNet lookup per word).
  for (const phrase of expandQuery(content, thesaurusVocabulary()).thesaurus) phrases.set(phrase.tokens.join(" "), phrase);
  for (const clause of claims.clauses) {
    for (const mention of clause.mentions) {
      if (mention.value.type !== "choice") continue;
      for (const slot of mention.value.slots) {
        for (const alias of slotAliases(slot)) {
          const tokens = tokenize(alias);
          if (tokens.length > 0) phrases.set(tokens.join(" "), { tokens, weight: 1 });
        }
      }
    }
  }
  return [...phrases.values()].slice(0, MAX_EXTRA_PHRASES);
}
