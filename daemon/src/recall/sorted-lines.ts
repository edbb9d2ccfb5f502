import fs from "node:fs";

const CHUNK = 512;

/**
 * A text file of lines sorted by byte order, searched on disk the way WordNet's own tools do
 * (binary search by byte offset), so that a 7 MB index costs a few dozen reads per lookup and no
 * memory. Lines before the sorted ones may start with a space (WordNet's licence header): they
 * sort below every key.
 */
export class SortedLines {
  private readonly fd: number;
  private readonly size: number;
  private readonly buffer = Buffer.alloc(CHUNK);

  constructor(file: string) {
    this.fd = fs.openSync(file, "r");
    this.size = fs.fstatSync(this.fd).size;
  }

  /** The lines that start with `prefix`, in file order (the sorted run of them). */
  withPrefix(prefix: string): string[] {
    // The first line start at which the line is >= prefix.
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const start = this.lineStart(middle);
      if (start >= this.size || this.lineAt(start) >= prefix) high = middle;
      else low = middle + 1;
    }
    const lines: string[] = [];
    for (let at = this.lineStart(low); at < this.size; ) {
      const line = this.lineAt(at);
      if (!line.startsWith(prefix)) break;
      lines.push(line);
      at += Buffer.byteLength(line) + 1;
    }
    return lines;
  }

  /** The line that starts at byte `offset` (as WordNet's data files are addressed). */
  lineAt(offset: number): string {
    const parts: Buffer[] = [];
    for (let at = offset; at < this.size; at += CHUNK) {
      const read = fs.readSync(this.fd, this.buffer, 0, CHUNK, at);
      const end = this.buffer.subarray(0, read).indexOf(10);
      if (end >= 0) {
        parts.push(Buffer.from(this.buffer.subarray(0, end)));
        break;
      }
      parts.push(Buffer.from(this.buffer.subarray(0, read)));
    }
    return Buffer.concat(parts).toString("utf8");
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  /** The start of the first line that begins at or after `position`. */
  private lineStart(position: number): number {
    if (position === 0) return 0;
    for (let at = position - 1; at < this.size; at += CHUNK) {
      const read = fs.readSync(this.fd, this.buffer, 0, CHUNK, at);
      const newline = this.buffer.subarray(0, read).indexOf(10);
      if (newline >= 0) return at + newline + 1;
    }
    return this.size;
  }
}
