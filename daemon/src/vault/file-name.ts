import { MEMORY_KINDS, type MemoryRecord } from "../memory/memory.js";

/**
 * Where a memory lives in the vault: `<project>/<kind>/<slug>-<id suffix>.md`. The names are for
 * people (a file tree in Obsidian, a git log); the frontmatter, not the path, says which memory and
 * project a file holds, so two projects whose names become the same folder do no harm.
 */

const MAX_SLUG_WORDS = 6;
const MAX_SLUG_CHARS = 48;
const ID_SUFFIX_CHARS = 8;
const MAX_SEGMENT_BYTES = 100;

// Path separators, NUL and other C0/C1 controls, line and bidi-override characters (which make a
// name read differently from what it is), and the characters Windows refuses in a file name.
const UNSAFE_IN_SEGMENT = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069/\\<>:"|?*]/gu;
// Windows refuses these names, in any case and with any extension: "con", "CON.txt", "lpt1".
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?=\.|$)/iu;

/**
 * The file's name without ".md": up to six words of the content as lowercase ASCII (accents
 * dropped, every other run of characters a "-", at most 48 characters; "memory" when nothing is
 * left), then "-" and the last 8 characters of the ULID, its random part, so that two memories
 * with the same opening words get different files. A pure function of id and content.
 */
export function fileStem(memory: Pick<MemoryRecord, "id" | "content">): string {
  const suffix = memory.id.slice(-ID_SUFFIX_CHARS).toLowerCase().replace(/[^a-z0-9]/g, "");
  const slug = contentSlug(memory.content);
  return suffix === "" ? slug : `${slug}-${suffix}`;
}

/** The folder of a memory, relative and POSIX: `<project>/<kind>`, each made safe as one path segment. */
export function vaultFolder(memory: Pick<MemoryRecord, "project" | "kind">): string {
  return `${pathSegment(memory.project, "project")}/${pathSegment(memory.kind, "memory")}`;
}

/** The memory's file, relative to the vault's root. */
export function vaultPath(memory: Pick<MemoryRecord, "id" | "content" | "project" | "kind">): string {
  return `${vaultFolder(memory)}/${fileStem(memory)}.md`;
}

function contentSlug(content: string): string {
  const words = content
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "")
    .slice(0, MAX_SLUG_WORDS);
  let slug = "";
  for (const word of words) {
    const longer = slug === "" ? word : `${slug}-${word}`;
    if (longer.length > MAX_SLUG_CHARS) {
      // Whole words read better than a cut one, unless the first word alone is too long.
      if (slug === "") slug = word.slice(0, MAX_SLUG_CHARS);
      break;
    }
    slug = longer;
  }
  return slug === "" ? "memory" : slug;
}

/**
 * A name as one path segment that every common filesystem accepts and that cannot climb out of
 * its folder or hide: unsafe characters become "-", leading dots, dashes and spaces go (".", "..",
 * ".hidden", "-rf"), trailing dots and spaces go (Windows drops them, merging names), reserved
 * Windows names get a "-", and it is cut to 100 UTF-8 bytes on a character boundary. Letters of
 * any script stay as they are (NFC, so the same name always gives the same bytes).
 */
function pathSegment(name: string, fallback: string): string {
  const cleaned = name.normalize("NFC").replace(UNSAFE_IN_SEGMENT, "-").replace(/^[\s.-]+/u, "");
  let segment = trimEnd(truncateUtf8(cleaned, MAX_SEGMENT_BYTES));
  const reserved = WINDOWS_RESERVED.exec(segment);
  if (reserved) {
    const base = reserved[1] ?? "";
    segment = trimEnd(truncateUtf8(`${base}-${segment.slice(base.length)}`, MAX_SEGMENT_BYTES));
  }
  return segment === "" ? fallback : segment;
}

function trimEnd(segment: string): string {
  return segment.replace(/[\s.]+$/u, "");
}

/** The longest prefix of whole characters (grapheme clusters) that fits in `maxBytes` of UTF-8. */
function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  let out = "";
  let bytes = 0;
  for (const { segment } of new Intl.Segmenter("en", { granularity: "grapheme" }).segment(text)) {
    const size = Buffer.byteLength(segment, "utf8");
    if (bytes + size > maxBytes) break;
    out += segment;
    bytes += size;
  }
  return out;
}

/**
 * True for a path (relative to the vault, POSIX) where memd keeps memories:
 * `<project>/<kind>/<name>.md` with a kind memd knows. Anything else in the vault (a person's
 * own notes, when the vault is inside their Obsidian vault) is not memd's: never read, never
 * rewritten, never reported.
 */
export function isMemoryFilePath(relative: string): boolean {
  const parts = relative.split("/");
  return parts.length === 3 && isKindFolderName(parts[1] as string) && (parts[2] as string).endsWith(".md") && !parts.some((part) => part.startsWith("."));
}

/** True for a folder name memd keeps a kind's files in (`fact`, `decision`, ...). */
export function isKindFolderName(name: string): boolean {
  return (MEMORY_KINDS as readonly string[]).includes(name);
}
