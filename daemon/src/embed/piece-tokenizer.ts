import { Tokenizer } from "@huggingface/tokenizers";
import { RESERVED_PIECES, UNKNOWN_PIECE, type Vocabulary } from "./static-table.js";

/** SentencePiece's word-start mark, which USE-lite's pieces carry in place of a space. */
const WORD_START = "\u2581";
/** Words whose pieces are remembered: words repeat (Zipf), and a word's lattice is most of the cost. */
const CACHED_WORDS = 20_000;

/**
 * USE-lite's SentencePiece tokenizer for the static table: the unigram model of
 * @huggingface/tokenizers over USE-lite's vocabulary, one whitespace-separated word at a time.
 * It gives USE-lite's own pieces (the energetic-ai tokenizer's, which is quadratic in a text's
 * length: 24 ms for 2,048 characters where this takes 2), except that any run of whitespace
 * counts as one space: USE-lite's tokenizer turns a newline into an unknown piece.
 */
export class PieceTokenizer {
  private readonly model: NonNullable<Tokenizer["model"]>;
  private readonly cache = new Map<string, readonly number[]>();

  constructor(vocabulary: Vocabulary) {
    // The reserved pieces must never match text ("<s>" would, at a better score than any word):
    // a space cannot occur inside a word, so a name with one is never matched.
    const vocab = vocabulary.map(([piece, score], id): [string, number] => (id < RESERVED_PIECES ? [` reserved ${id}`, score] : [piece, score]));
    // Only the unigram model is used: normalising and splitting words happen here, where words are cached.
    const model = { type: "Unigram", unk_id: UNKNOWN_PIECE, vocab };
    const tokenizer = new Tokenizer({ model, normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, added_tokens: [] }, {});
    if (!tokenizer.model) throw new Error("@huggingface/tokenizers made no unigram model of USE-lite's vocabulary");
    this.model = tokenizer.model;
  }

  /** The piece ids of a text, in order; a character no piece covers gives the unknown piece. */
  encode(text: string): number[] {
    const ids: number[] = [];
    for (const word of text.normalize("NFKC").split(/\s+/)) {
      if (word === "") continue;
      for (const id of this.word(word)) ids.push(id);
    }
    return ids;
  }

  private word(word: string): readonly number[] {
    const cached = this.cache.get(word);
    if (cached !== undefined) return cached;
    const pieces: string[] = this.model.encode([WORD_START + word]);
    const ids = pieces.map((piece) => this.model.tokens_to_ids.get(piece) ?? UNKNOWN_PIECE);
    if (this.cache.size >= CACHED_WORDS) this.cache.clear();
    this.cache.set(word, ids);
    return ids;
  }
}
