import { createHash } from "node:crypto";

/**
 * A static embedding table distilled from a sentence encoder (the Model2Vec method): one vector
 * per vocabulary piece, the encoder's output for that piece alone, weighted by how rare the
 * piece is. A text's vector is the mean of its pieces' rows (see StaticEmbedder).
 *
 * Rows are stored as int8 with one float32 scale each, which also carries the piece's weight:
 * a quarter of float32's size, with a cosine error near 1e-4, far below what ranking notices.
 */
export interface StaticTable {
  rows: number;
  dimensions: number;
  /** Per row: its largest |component| / 127 (the weight included); 0 for a piece that never counts. */
  scales: Float32Array;
  /** rows × dimensions, row-major. */
  values: Int8Array;
  /** vocabularyDigest() of the vocabulary the rows follow: a table never meets another tokenizer. */
  vocabularyDigest: string;
}

/** A SentencePiece vocabulary as USE-lite ships it: [piece, log probability] by id. */
export type Vocabulary = readonly (readonly [string, number])[];

/**
 * Model2Vec's smooth inverse frequency weight a / (a + p): Model2Vec estimates p from a rank by
 * Zipf's law; USE-lite's unigram vocabulary states each piece's probability, which is used here.
 * 1e-4 is Model2Vec's default.
 */
export const SIF_COEFFICIENT = 1e-4;
/**
 * USE-lite's first ids are the unknown piece, <s>, </s> and three unused ones. Only the unknown
 * piece stands for text (a character no piece covers); its probability of 1 leaves it a weight
 * of 1e-4, so it counts only in a text that has nothing else. The others get no row.
 */
export const RESERVED_PIECES = 6;
export const UNKNOWN_PIECE = 0;

const MAGIC = "MEMDSTV1";
const HEADER_BYTES = MAGIC.length + 4 + 4 + 32;

/** Identifies a vocabulary by its pieces and scores, whatever the whitespace of the file it came from. */
export function vocabularyDigest(vocabulary: Vocabulary): string {
  return createHash("sha256").update(JSON.stringify(vocabulary)).digest("hex");
}

/**
 * The table from the teacher's vector of every piece alone (`pieceVectors`, rows × dimensions,
 * in vocabulary order): each row weighed (SIF_COEFFICIENT), then stripped of the direction all
 * texts share (see commonDirection), then packed.
 *
 * No PCA: measured on the dev sets, reducing USE-lite's 512 dimensions to 256 lost recall
 * (0.01-0.06 R@10 uncentred, up to 0.10 centred), and keeping them keeps the table in the
 * teacher's own space, where its rows can be compared with the teacher's vectors.
 */
export function distillTable(pieceVectors: Float32Array, vocabulary: Vocabulary, dimensions: number): StaticTable {
  const rows = vocabulary.length;
  if (pieceVectors.length !== rows * dimensions) throw new Error(`expected ${rows} × ${dimensions} values, got ${pieceVectors.length}`);
  const weighted = new Float64Array(rows * dimensions);
  for (let row = 0; row < rows; row++) {
    if (!counts(row)) continue;
    const weight = SIF_COEFFICIENT / (SIF_COEFFICIENT + probability(vocabulary, row));
    for (let d = 0; d < dimensions; d++) weighted[row * dimensions + d] = weight * (pieceVectors[row * dimensions + d] as number);
  }
  const common = commonDirection(weighted, vocabulary, dimensions);
  const scales = new Float32Array(rows);
  const values = new Int8Array(rows * dimensions);
  const stripped = new Float64Array(dimensions);
  for (let row = 0; row < rows; row++) {
    if (!counts(row)) continue;
    const at = row * dimensions;
    let along = 0;
    for (let d = 0; d < dimensions; d++) along += (weighted[at + d] as number) * (common[d] as number);
    let largest = 0;
    for (let d = 0; d < dimensions; d++) {
      stripped[d] = (weighted[at + d] as number) - along * (common[d] as number);
      largest = Math.max(largest, Math.abs(stripped[d] as number));
    }
    if (!(largest > 0)) continue;
    scales[row] = largest / 127;
    for (let d = 0; d < dimensions; d++) values[at + d] = Math.round(((stripped[d] as number) / largest) * 127);
  }
  return { rows, dimensions, scales, values, vocabularyDigest: vocabularyDigest(vocabulary) };
}

/**
 * The direction of the expected text's vector: the weighted rows averaged by how often each
 * piece occurs, as a unit vector. USE-lite gives every piece alone a large share of one
 * direction, so means of rows all point much the same way: unrelated texts scored a cosine of
 * 0.90-0.96 (the teacher: 0.42-0.59), above the thresholds that dedup, promotion and clustering
 * read as "the same". Without it they score 0.13-0.36 (p50 over random pairs of the dev sets).
 */
function commonDirection(weighted: Float64Array, vocabulary: Vocabulary, dimensions: number): Float64Array {
  const direction = new Float64Array(dimensions);
  for (let row = 0; row < vocabulary.length; row++) {
    // The unknown piece's stated probability (1) is no frequency.
    if (!counts(row) || row === UNKNOWN_PIECE) continue;
    const p = probability(vocabulary, row);
    for (let d = 0; d < dimensions; d++) direction[d] = (direction[d] as number) + p * (weighted[row * dimensions + d] as number);
  }
  const norm = Math.hypot(...direction);
  return norm > 0 ? direction.map((x) => x / norm) : direction;
}

function counts(row: number): boolean {
  return row === UNKNOWN_PIECE || row >= RESERVED_PIECES;
}

function probability(vocabulary: Vocabulary, row: number): number {
  return Math.exp((vocabulary[row] as readonly [string, number])[1]);
}

/** The table as the bytes of its file: magic, rows, dimensions, vocabulary digest, scales, values (little-endian). */
export function encodeStaticTable(table: StaticTable): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES + table.rows * 4 + table.values.length);
  const view = new DataView(bytes.buffer);
  bytes.set(Buffer.from(MAGIC, "latin1"), 0);
  view.setUint32(MAGIC.length, table.rows, true);
  view.setUint32(MAGIC.length + 4, table.dimensions, true);
  bytes.set(Buffer.from(table.vocabularyDigest, "hex"), MAGIC.length + 8);
  table.scales.forEach((scale, row) => view.setFloat32(HEADER_BYTES + row * 4, scale, true));
  bytes.set(new Uint8Array(table.values.buffer, table.values.byteOffset, table.values.length), HEADER_BYTES + table.rows * 4);
  return bytes;
}

/** Reads a table file; throws with what is wrong when the bytes are not one. */
export function decodeStaticTable(bytes: Uint8Array): StaticTable {
  if (bytes.length < HEADER_BYTES || Buffer.from(bytes.subarray(0, MAGIC.length)).toString("latin1") !== MAGIC) {
    throw new Error("not a static embedding table (its header is missing)");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const rows = view.getUint32(MAGIC.length, true);
  const dimensions = view.getUint32(MAGIC.length + 4, true);
  const expected = HEADER_BYTES + rows * 4 + rows * dimensions;
  if (bytes.length !== expected) throw new Error(`a table of ${rows} × ${dimensions} takes ${expected} bytes; this one has ${bytes.length}`);
  const scales = new Float32Array(rows);
  for (let row = 0; row < rows; row++) scales[row] = view.getFloat32(HEADER_BYTES + row * 4, true);
  const values = new Int8Array(rows * dimensions);
  values.set(new Int8Array(bytes.buffer, bytes.byteOffset + HEADER_BYTES + rows * 4, rows * dimensions));
  return { rows, dimensions, scales, values, vocabularyDigest: Buffer.from(bytes.subarray(MAGIC.length + 8, HEADER_BYTES)).toString("hex") };
}
