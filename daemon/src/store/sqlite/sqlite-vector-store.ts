import type Database from "better-sqlite3";
import type { EmbeddingSpace } from "../../embed/embedder.js";
import type { EmbeddingJob, SpaceRecord, StoredCode, StoredVector, VectorStore } from "../vector-store.js";
import { type MemoryRow, readMemoriesBySeq, rowToMemory, type UnreadableRowReport } from "./memory-row.js";

const CODE_PAGE = 5000;
const VECTOR_PAGE = "SELECT memory_seq, vector FROM memory_vectors WHERE space_id = ? AND memory_seq > ?";

interface SpaceRow {
  id: number;
  provider: string;
  model: string;
  dimensions: number;
  state: SpaceRecord["state"];
  created_at: number;
  activated_at: number | null;
  quantizer: Buffer | null;
}

function toSpace(row: SpaceRow): SpaceRecord {
  return {
    id: row.id,
    provider: row.provider,
    model: row.model,
    dimensions: row.dimensions,
    state: row.state,
    createdAt: row.created_at,
    activatedAt: row.activated_at,
    quantizer: row.quantizer ? new Uint8Array(row.quantizer) : null,
  };
}

/** Float32 vectors travel as little-endian BLOBs. */
export function vectorToBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function blobToVector(blob: Buffer): Float32Array {
  // Copy: the Buffer may sit at an offset that is not a multiple of 4 in a shared pool.
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}

/** The SQLite side of embeddings: spaces, the durable job queue, vectors and codes. */
export class SqliteVectorStore implements VectorStore {
  constructor(
    private readonly db: Database.Database,
    /** Told of a memory whose row could only be read by repairing it (see rowToMemory). */
    private readonly reportUnreadable?: UnreadableRowReport,
  ) {}

  spaces(): SpaceRecord[] {
    return (this.db.prepare("SELECT * FROM embedding_spaces ORDER BY id").all() as SpaceRow[]).map(toSpace);
  }

  ensureSpace(space: EmbeddingSpace, now: number): SpaceRecord {
    return this.db.transaction(() => {
      const existing = this.db
        .prepare("SELECT * FROM embedding_spaces WHERE provider = ? AND model = ? AND dimensions = ?")
        .get(space.provider, space.model, space.dimensions) as SpaceRow | undefined;
      if (existing && existing.state !== "retired") return toSpace(existing);
      const hasActive = this.db.prepare("SELECT 1 FROM embedding_spaces WHERE state = 'active'").get() !== undefined;
      const state = hasActive ? "building" : "active";
      let id: number;
      if (existing) {
        // A retired space comes back: its vectors were cleared when it was retired.
        this.db.prepare("UPDATE embedding_spaces SET state = ?, activated_at = ?, quantizer = NULL WHERE id = ?").run(state, hasActive ? null : now, existing.id);
        id = existing.id;
      } else {
        const info = this.db
          .prepare("INSERT INTO embedding_spaces (provider, model, dimensions, state, created_at, activated_at) VALUES (?, ?, ?, ?, ?, ?)")
          .run(space.provider, space.model, space.dimensions, state, now, hasActive ? null : now);
        id = Number(info.lastInsertRowid);
      }
      this.requeueAll(id);
      return toSpace(this.db.prepare("SELECT * FROM embedding_spaces WHERE id = ?").get(id) as SpaceRow);
    }).immediate();
  }

  activateSpace(spaceId: number, now: number): void {
    this.db.transaction(() => {
      const retired = this.db.prepare("SELECT id FROM embedding_spaces WHERE state = 'active' AND id != ?").all(spaceId) as { id: number }[];
      for (const { id } of retired) {
        this.db.prepare("UPDATE embedding_spaces SET state = 'retired' WHERE id = ?").run(id);
        this.db.prepare("DELETE FROM memory_vectors WHERE space_id = ?").run(id);
        this.db.prepare("DELETE FROM embedding_jobs WHERE space_id = ?").run(id);
      }
      this.db.prepare("UPDATE embedding_spaces SET state = 'active', activated_at = ? WHERE id = ?").run(now, spaceId);
    }).immediate();
  }

  setQuantizer(spaceId: number, quantizer: Uint8Array): void {
    this.db.prepare("UPDATE embedding_spaces SET quantizer = ? WHERE id = ?").run(Buffer.from(quantizer), spaceId);
  }

  dueJobs(spaceId: number, now: number, limit: number): EmbeddingJob[] {
    const rows = this.db
      .prepare(
        `SELECT j.space_id, j.memory_seq, j.token, j.attempts, m.*
         FROM embedding_jobs j JOIN memories m ON m.seq = j.memory_seq
         WHERE j.space_id = ? AND j.next_attempt_at <= ?
         ORDER BY j.next_attempt_at, j.memory_seq LIMIT ?`,
      )
      .all(spaceId, now, limit) as (MemoryRow & { space_id: number; memory_seq: number; token: number; attempts: number })[];
    return rows.map((row) => ({
      spaceId: row.space_id,
      memorySeq: row.memory_seq,
      token: row.token,
      attempts: row.attempts,
      memory: rowToMemory(row, this.reportUnreadable),
    }));
  }

  nextDueAt(spaceId: number): number | null {
    const row = this.db.prepare("SELECT MIN(next_attempt_at) AS due FROM embedding_jobs WHERE space_id = ?").get(spaceId) as { due: number | null };
    return row.due;
  }

  pendingJobs(spaceId: number): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM embedding_jobs WHERE space_id = ?").get(spaceId) as { n: number }).n;
  }

  completeJobs(jobs: readonly EmbeddingJob[], vectors: readonly StoredVector[]): void {
    const put = this.db.prepare(
      `INSERT OR REPLACE INTO memory_vectors (space_id, memory_seq, text_hash, vector, code)
       SELECT ?, seq, ?, ?, ? FROM memories WHERE seq = ?`,
    );
    const done = this.db.prepare("DELETE FROM embedding_jobs WHERE space_id = ? AND memory_seq = ? AND token = ?");
    this.db.transaction(() => {
      for (const v of vectors) put.run(v.spaceId, v.textHash, vectorToBlob(v.vector), Buffer.from(v.code), v.memorySeq);
      for (const job of jobs) done.run(job.spaceId, job.memorySeq, job.token);
    }).immediate();
  }

  failJobs(jobs: readonly EmbeddingJob[], error: string, retryAt: number): void {
    const fail = this.db.prepare(
      "UPDATE embedding_jobs SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE space_id = ? AND memory_seq = ? AND token = ?",
    );
    this.db.transaction(() => {
      for (const job of jobs) fail.run(retryAt, error.slice(0, 500), job.spaceId, job.memorySeq, job.token);
    }).immediate();
  }

  requeueAll(spaceId: number): number {
    return this.db
      .prepare("INSERT OR REPLACE INTO embedding_jobs (space_id, memory_seq, token) SELECT ?, seq, (random() % 4503599627370496) FROM memories")
      .run(spaceId).changes;
  }

  vectors(spaceId: number, memorySeqs: readonly number[]): Map<number, Float32Array> {
    const out = new Map<number, Float32Array>();
    if (memorySeqs.length === 0) return out;
    const dims = (this.db.prepare("SELECT dimensions FROM embedding_spaces WHERE id = ?").get(spaceId) as { dimensions: number } | undefined)?.dimensions;
    if (dims === undefined) return out;
    const stmt = this.db.prepare(
      `SELECT memory_seq, vector FROM memory_vectors WHERE space_id = ? AND memory_seq IN (SELECT value FROM json_each(?))`,
    );
    const corrupt: number[] = [];
    for (const row of stmt.all(spaceId, JSON.stringify(memorySeqs)) as { memory_seq: number; vector: Buffer }[]) {
      if (row.vector.byteLength !== dims * 4) corrupt.push(row.memory_seq);
      else out.set(row.memory_seq, blobToVector(row.vector));
    }
    if (corrupt.length > 0) this.requeue(spaceId, corrupt);
    return out;
  }

  *codes(spaceId: number): Iterable<StoredCode> {
    const pages = this.pages<{ memory_seq: number; project: string; code: Buffer }>(
      "SELECT v.memory_seq, m.project, v.code FROM memory_vectors v JOIN memories m ON m.seq = v.memory_seq WHERE v.space_id = ? AND v.memory_seq > ?",
      spaceId,
    );
    for (const rows of pages) {
      for (const row of rows) yield { memorySeq: row.memory_seq, project: row.project, code: new Uint8Array(row.code) };
    }
  }


  *storedVectors(spaceId: number): Iterable<{ memorySeq: number; vector: Float32Array }[]> {
    const bytes = (this.spaces().find((space) => space.id === spaceId)?.dimensions ?? 0) * 4;
    for (const rows of this.pages<{ memory_seq: number; vector: Buffer }>(VECTOR_PAGE, spaceId)) {
      yield rows.flatMap((row) => (row.vector.byteLength === bytes ? [{ memorySeq: row.memory_seq, vector: blobToVector(row.vector) }] : []));
    }
  }


  vectorCount(spaceId: number): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM memory_vectors WHERE space_id = ?").get(spaceId) as { n: number }).n;
  }

  sampleVectors(spaceId: number, limit: number): Float32Array[] {
    const rows = this.db
      .prepare("SELECT vector FROM memory_vectors WHERE space_id = ? ORDER BY memory_seq LIMIT ?")
      .all(spaceId, limit) as { vector: Buffer }[];
    return rows.map((row) => blobToVector(row.vector));
  }

  recode(spaceId: number, encode: (vector: Float32Array) => Uint8Array): void {
    const write = this.db.prepare("UPDATE memory_vectors SET code = ? WHERE space_id = ? AND memory_seq = ?");
    for (const rows of this.pages<{ memory_seq: number; vector: Buffer }>(VECTOR_PAGE, spaceId)) {
      this.db.transaction(() => {
        for (const row of rows) write.run(Buffer.from(encode(blobToVector(row.vector))), spaceId, row.memory_seq);
      })();
    }
  }

  /**
   * A space's rows from `select` (which ends in "space_id = ? AND memory_seq > ?"), a page at
   * a time in seq order; each page is read whole, so no read stays open while one is used.
   */
  private *pages<Row extends { memory_seq: number }>(select: string, spaceId: number): Iterable<Row[]> {
    const stmt = this.db.prepare(`${select} ORDER BY memory_seq LIMIT ${CODE_PAGE}`);
    let after = 0;
    for (;;) {
      const rows = stmt.all(spaceId, after) as Row[];
      yield rows;
      const last = rows.at(-1);
      if (!last || rows.length < CODE_PAGE) return;
      after = last.memory_seq;
    }
  }


  memoriesBySeq(memorySeqs: readonly number[]) {
    return readMemoriesBySeq(this.db, memorySeqs, this.reportUnreadable);
  }

  /** A vector row that cannot be read is dropped and its memory embedded again. */
  private requeue(spaceId: number, memorySeqs: readonly number[]): void {
    this.db.transaction(() => {
      for (const seq of memorySeqs) {
        this.db.prepare("DELETE FROM memory_vectors WHERE space_id = ? AND memory_seq = ?").run(spaceId, seq);
        this.db.prepare("INSERT OR REPLACE INTO embedding_jobs (space_id, memory_seq, token) VALUES (?, ?, (random() % 4503599627370496))").run(spaceId, seq);
      }
    }).immediate();
  }
}
