import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { detectionText } from "../../daemon/src/redact/detection-text.js";

/** Somewhere a secret must not be: a file's bytes, an export, rows of the hub. */
export interface Haystack {
  where: string;
  bytes: Buffer;
}

/** Every file under a folder, as a haystack (its raw bytes, whatever their encoding). */
export function fileHaystacks(dir: string, keep: (file: string) => boolean = () => true): Haystack[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter(keep)
    .map((file) => ({ where: file, bytes: fs.readFileSync(file) }));
}

export function textHaystack(where: string, text: string): Haystack {
  return { where, bytes: Buffer.from(text, "utf8") };
}

/**
 * Fails when any secret is in any haystack: as written (UTF-8 bytes, so a secret split by a
 * zero-width space or typed in fullwidth letters is looked for as it was sent), and as it reads
 * (its fold, in case something on the way normalised it).
 */
export function expectNoSecrets(haystacks: readonly Haystack[], secrets: readonly string[]): void {
  const needles = [...new Set(secrets.flatMap((secret) => [secret, detectionText(secret).text]))].map((needle) => ({ needle, bytes: Buffer.from(needle, "utf8") }));
  for (const { needle, bytes } of needles) {
    for (const haystack of haystacks) expect(haystack.bytes.includes(bytes), `${JSON.stringify(needle.slice(0, 24))}... found in ${haystack.where}`).toBe(false);
  }
}
