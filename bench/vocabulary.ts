import { pick, type Random, randomInt, shuffled, type ZipfSampler, zipfSampler } from "./seeded-random.js";
import {
  CONTENT_WORDS, DIRS, ENV_VARS, ERROR_CODES, EXTENSIONS, NOUNS, TICKET_PREFIXES, VERBS,
} from "./vocabulary-words.js";

/** The terms synthetic memories are built from, each class with its own Zipf frequency. */
export interface Vocabulary {
  word: ZipfSampler<string>;
  verb: ZipfSampler<string>;
  identifier: ZipfSampler<string>;
  path: ZipfSampler<string>;
  ticket: ZipfSampler<string>;
  errorCode: ZipfSampler<string>;
  envVar: ZipfSampler<string>;
  command: ZipfSampler<string>;
  /** How many distinct terms there are, for the report. */
  size: number;
}

const IDENTIFIER_COUNT = 900;
const PATH_COUNT = 700;
const TICKET_COUNT = 800;

/** Builds the vocabulary; the same random source always yields the same terms and ranks. */
export function buildVocabulary(random: Random): Vocabulary {
  const identifiers = uniqueTerms(IDENTIFIER_COUNT, () => {
    const noun = pick(random, NOUNS);
    const style = random();
    if (style < 0.6) return `${pick(random, VERBS)}${capitalize(noun)}`;
    if (style < 0.85) return `${capitalize(noun)}${capitalize(pick(random, NOUNS))}`;
    return `${noun}_${pick(random, NOUNS)}_${pick(random, ["max", "ttl", "id", "count", "ms"])}`;
  });
  const paths = uniqueTerms(PATH_COUNT, () => {
    const ext = EXTENSIONS[Math.min(EXTENSIONS.length - 1, Math.floor(random() ** 2 * EXTENSIONS.length))];
    const depth = randomInt(random, 1, 3);
    const folders = [pick(random, DIRS)];
    for (let i = 1; i < depth; i += 1) folders.push(pick(random, NOUNS));
    const name = random() < 0.5 ? pick(random, NOUNS) : `${pick(random, NOUNS)}-${pick(random, NOUNS)}`;
    return `${folders.join("/")}/${name}.${ext ?? "ts"}`;
  });
  const tickets = uniqueTerms(TICKET_COUNT, () => `${pick(random, TICKET_PREFIXES)}-${randomInt(random, 100, 4999)}`);
  const commands = uniqueTerms(60, () => {
    const noun = pick(random, NOUNS);
    return pick(random, [
      `npm run ${pick(random, ["build", "test", "lint", "dev", "typecheck"])}`,
      `make ${noun}-${pick(random, ["up", "down", "reset", "check"])}`,
      `docker compose up ${noun}`,
      `kubectl rollout restart deploy/${noun}`,
      `git rebase -i origin/${pick(random, ["main", "develop", "release"])}`,
      `psql -c 'vacuum analyze ${noun}s'`,
      `terraform plan -target=module.${noun}`,
    ]);
  });
  const word = [...new Set(CONTENT_WORDS)];
  return {
    // Flatter than classic Zipf: stopwords are drawn apart, and engineering notes spread
    // over many content words, so that no single word lands in every memory.
    word: zipfSampler(word, 0.75),
    verb: zipfSampler(VERBS),
    identifier: zipfSampler(identifiers),
    path: zipfSampler(paths),
    ticket: zipfSampler(tickets),
    errorCode: zipfSampler(shuffled(random, ERROR_CODES)),
    envVar: zipfSampler(shuffled(random, ENV_VARS)),
    command: zipfSampler(commands),
    size: word.length + identifiers.length + paths.length + tickets.length + ERROR_CODES.length + ENV_VARS.length + commands.length,
  };
}

function uniqueTerms(count: number, make: () => string): string[] {
  const out = new Set<string>();
  // Bounded so that a too-small combination space cannot loop forever.
  for (let attempts = 0; out.size < count && attempts < count * 50; attempts += 1) out.add(make());
  return [...out];
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
