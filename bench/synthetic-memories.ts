import { MemoryKind } from "../gen/memd/v1/memory_pb.js";
import { mulberry32, pick, type Random, randomInt, zipfSampler } from "./seeded-random.js";
import { buildVocabulary, type Vocabulary } from "./vocabulary.js";
import { FUNCTION_WORDS, PROJECTS, TAGS } from "./vocabulary-words.js";

/** The fields of a memory the benchmark varies; the rest are fixed by the caller. */
export interface MemoryDraft {
  content: string;
  kind: MemoryKind;
  project: string;
  concepts: string[];
  files: string[];
  tags: string[];
}

/** A search as an agent would send it. */
export interface QueryDraft {
  /** 1-4 terms, identifiers included. */
  query: string;
  project: string;
}

/** Memories and queries over one fixed vocabulary. */
export interface SyntheticCorpus {
  vocabularySize: number;
  /**
   * A reproducible stream of memories. Each use gets its own seed, so that measuring more or
   * fewer Saves never changes which memories Import stores.
   */
  memories(seed: number): () => MemoryDraft;
  /** A reproducible stream of searches, each scoped to a project. */
  queries(seed: number): () => QueryDraft;
}

const GLOBAL_SHARE = 0.05;

// Kinds as agents tend to write them: mostly facts and episodes, few rules and ideas.
const KIND_WEIGHTS: readonly (readonly [MemoryKind, number])[] = [
  [MemoryKind.FACT, 25], [MemoryKind.EPISODE, 20], [MemoryKind.DECISION, 12], [MemoryKind.PROCEDURE, 10],
  [MemoryKind.TRACE, 10], [MemoryKind.TASK, 8], [MemoryKind.PREFERENCE, 5], [MemoryKind.CONTEXT, 5],
  [MemoryKind.RULE, 3], [MemoryKind.IDEA, 2],
];

export function createSyntheticCorpus(vocabularySeed: number): SyntheticCorpus {
  const vocabulary = buildVocabulary(mulberry32(vocabularySeed));
  // Some projects are far busier than others, as on a real machine.
  const projects = zipfSampler(PROJECTS, 0.8);
  return {
    vocabularySize: vocabulary.size,
    memories(seed) {
      const random = mulberry32(seed);
      return () => draftMemory(vocabulary, random, projects.sample(random));
    },
    queries(seed) {
      const random = mulberry32(seed);
      return () => ({ query: draftQuery(vocabulary, random), project: projects.sample(random) });
    },
  };
}

function draftMemory(v: Vocabulary, random: Random, project: string): MemoryDraft {
  const kind = weightedKind(random);
  const concepts = new Set<string>();
  const files = new Set<string>();
  const slots: Slots = {
    w: () => v.word.sample(random),
    words: (min, max) => prose(v, random, randomInt(random, min, max)),
    verb: () => v.verb.sample(random),
    id: () => remember(concepts, v.identifier.sample(random)),
    path: () => remember(files, v.path.sample(random)),
    ticket: () => remember(concepts, v.ticket.sample(random)),
    err: () => remember(concepts, v.errorCode.sample(random)),
    env: () => remember(concepts, v.envVar.sample(random)),
    cmd: () => v.command.sample(random),
    line: () => randomInt(random, 1, 400),
  };
  const sentences = [pick(random, TEMPLATES[kind] ?? TEMPLATES[MemoryKind.FACT] ?? [])(slots)];
  // Most memories carry some context around their key sentence; a few are one-liners.
  const extra = randomInt(random, 0, 3);
  for (let i = 0; i < extra; i += 1) sentences.push(`${capitalize(slots.words(6, 18))}.`);
  const tags = random() < 0.6 ? [pick(random, TAGS)] : [];
  return {
    content: sentences.join(" "),
    kind,
    project: random() < GLOBAL_SHARE ? "global" : project,
    concepts: [...concepts].slice(0, 4),
    files: [...files].slice(0, 3),
    tags,
  };
}

function draftQuery(v: Vocabulary, random: Random): string {
  const terms: string[] = [];
  const count = randomInt(random, 1, 4);
  for (let i = 0; i < count; i += 1) {
    const roll = random();
    if (roll < 0.55) terms.push(v.word.sample(random));
    else if (roll < 0.65) terms.push(v.errorCode.sample(random));
    else if (roll < 0.75) terms.push(v.ticket.sample(random));
    else if (roll < 0.85) terms.push(v.identifier.sample(random));
    else if (roll < 0.95) terms.push(v.path.sample(random));
    else terms.push(v.envVar.sample(random));
  }
  return terms.join(" ");
}

interface Slots {
  w(): string;
  words(min: number, max: number): string;
  verb(): string;
  id(): string;
  path(): string;
  ticket(): string;
  err(): string;
  env(): string;
  cmd(): string;
  line(): number;
}

type Template = (s: Slots) => string;

const TEMPLATES: Partial<Record<MemoryKind, readonly Template[]>> = {
  [MemoryKind.FACT]: [
    (s) => `${capitalize(s.id())} in ${s.path()} ${s.words(4, 10)}.`,
    (s) => `The ${s.w()} ${s.w()} reads ${s.env()} at startup and ${s.words(3, 8)}.`,
    (s) => `${capitalize(s.w())} ${s.w()} is handled by ${s.id()}; ${s.words(5, 12)}.`,
  ],
  [MemoryKind.EPISODE]: [
    (s) => `Fixed ${s.err()} in ${s.path()} when ${s.words(3, 8)}; root cause was ${s.words(3, 7)} (${s.ticket()}).`,
    (s) => `${s.ticket()}: ${s.id()} failed with ${s.err()} because ${s.words(4, 10)}.`,
    (s) => `Debugged ${s.w()} ${s.w()} for hours: ${s.words(5, 12)}, fixed in ${s.path()}.`,
  ],
  [MemoryKind.DECISION]: [
    (s) => `Decided to ${s.verb()} ${s.w()} ${s.w()} with ${s.w()} instead of ${s.w()} because ${s.words(4, 10)}.`,
    (s) => `We keep ${s.id()} in ${s.path()} rather than ${s.w()} ${s.w()} (${s.ticket()}).`,
  ],
  [MemoryKind.PROCEDURE]: [
    (s) => `To ${s.verb()} the ${s.w()} ${s.w()}, run \`${s.cmd()}\` then check ${s.path()}.`,
    (s) => `Release steps: set ${s.env()}, run \`${s.cmd()}\`, then ${s.words(4, 9)}.`,
  ],
  [MemoryKind.TRACE]: [
    (s) => `\`${s.cmd()}\` failed with ${s.err()} at ${s.path()}:${s.line()}.`,
    (s) => `${s.err()} from ${s.id()} while ${s.words(3, 7)}.`,
  ],
  [MemoryKind.TASK]: [
    (s) => `TODO: ${s.verb()} ${s.id()} in ${s.path()} for ${s.ticket()}.`,
    (s) => `Follow up on ${s.ticket()}: ${s.words(4, 10)}.`,
  ],
  [MemoryKind.PREFERENCE]: [
    (s) => `User prefers ${s.w()} ${s.w()} over ${s.w()} ${s.w()}; ${s.words(3, 8)}.`,
    (s) => `Keep ${s.w()} ${s.w()} short and ${s.words(2, 6)}.`,
  ],
  [MemoryKind.CONTEXT]: [
    (s) => `This project ${s.words(4, 10)}; ${s.w()} lives in ${s.path()}.`,
  ],
  [MemoryKind.RULE]: [
    (s) => `Never ${s.verb()} ${s.w()} ${s.w()} without ${s.words(2, 6)}; see ${s.ticket()}.`,
  ],
  [MemoryKind.IDEA]: [
    (s) => `Idea: ${s.verb()} ${s.id()} to ${s.words(4, 10)}.`,
  ],
};

/** Running text: Zipf-drawn content words with stopwords sprinkled in, as in real notes. */
function prose(v: Vocabulary, random: Random, length: number): string {
  const out: string[] = [];
  for (let i = 0; i < length; i += 1) {
    if (i > 0 && random() < 0.3) out.push(pick(random, FUNCTION_WORDS));
    out.push(v.word.sample(random));
  }
  return out.join(" ");
}

function weightedKind(random: Random): MemoryKind {
  const total = KIND_WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
  let roll = random() * total;
  for (const [kind, weight] of KIND_WEIGHTS) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return MemoryKind.FACT;
}

function remember(into: Set<string>, term: string): string {
  into.add(term);
  return term;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
