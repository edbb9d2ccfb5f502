import { type Document, LineCounter, type Node, type Scalar, isMap, isPair, isSeq, parseDocument, visit } from "yaml";

/** Why a memory's file cannot be read, and the file's line to blame. */
export class FileFormatError extends Error {
  constructor(readonly line: number, reason: string) {
    super(reason);
  }
}

/**
 * How far YAML aliases may expand when a frontmatter is read as values (the yaml package's
 * maxAliasCount, its default): nested aliases (`b: [*a, *a, ...]`, `c: [*b, *b, ...]`) grow
 * exponentially, and memd writes none of its own.
 */
const MAX_ALIAS_COUNT = 100;

/**
 * How deep lists and mappings may nest in a frontmatter: memd's own nest 3 deep (a history
 * entry), Obsidian's properties 2. The YAML parser, the redactor and the renderer each take a
 * stack frame per level, so a file nested a few hundred deep would pass the parser and fail
 * later, on every write of its memory; it is refused as it is read instead.
 */
const MAX_NESTING = 32;

/** A frontmatter's YAML document, and the file's line of any node in it (`fallback` for none). */
export interface CheckedFrontmatter {
  doc: Document.Parsed;
  lineOf: (node: Node | null | undefined, fallback?: number) => number;
}

/**
 * A frontmatter parsed and checked before anything reads its values: valid YAML, and, when it is
 * a mapping, nested at most MAX_NESTING deep with aliases that expand at most MAX_ALIAS_COUNT
 * times. Throws FileFormatError. Duplicate keys are the reader's to refuse (uniqueKey): the
 * parser's own check compares every key of a mapping with every other (a frontmatter of 20,000
 * keys took 14 s on the daemon's event loop).
 */
export function checkedFrontmatter(yaml: string): CheckedFrontmatter {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter, schema: "core", version: "1.2", uniqueKeys: false, prettyErrors: true });
  // The frontmatter starts on the file's line 2.
  const lineOf = (node: Node | null | undefined, fallback = 2) => (node?.range ? lineCounter.linePos(node.range[0]).line + 1 : fallback);
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    const message = error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, "");
    throw new FileFormatError((at?.line ?? 1) + 1, `the frontmatter is not valid YAML (column ${at?.col ?? 1}): ${message}`);
  }
  if (!isMap(doc.contents)) return { doc, lineOf };
  const deep = tooDeep(doc.contents);
  if (deep !== null) {
    throw new FileFormatError(lineOf(deep), `the frontmatter nests lists and mappings more than ${MAX_NESTING} deep: memd reads no such file; keep properties flat`);
  }
  refuseAliasBomb(doc, lineOf);
  return { doc, lineOf };
}

/** A mapping's key, refused when the mapping had it already (which value would count?). */
export function uniqueKey(seen: Set<string>, key: Scalar, lineOf: (node: Node) => number): string {
  const name = String(key.value);
  if (seen.has(name)) throw new FileFormatError(lineOf(key), `the frontmatter is not valid YAML: map keys must be unique, and ${name} appears twice: keep one`);
  seen.add(name);
  return name;
}

/** The first list or mapping nested deeper than MAX_NESTING, found without recursion; null when none is. */
function tooDeep(top: Node): Node | null {
  const stack: [unknown, number][] = [[top, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_NESTING) return node;
    for (const item of node.items) {
      if (isPair(item)) stack.push([item.key, depth + 1], [item.value, depth + 1]);
      else stack.push([item, depth + 1]);
    }
  }
  return null;
}

/** Refuses a frontmatter whose aliases expand past MAX_ALIAS_COUNT, before anything reads their values. */
function refuseAliasBomb(doc: Document.Parsed, lineOf: (node: Node) => number): void {
  let first: Node | undefined;
  visit(doc, {
    Alias(_key, node) {
      first = node;
      return visit.BREAK;
    },
  });
  if (first === undefined) return;
  try {
    doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    throw new FileFormatError(
      lineOf(first),
      "the frontmatter's YAML aliases (*name) expand to far too many values, as a YAML alias bomb does: memd reads no such file; write the values out instead of aliasing them",
    );
  }
}
