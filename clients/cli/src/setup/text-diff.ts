/** Lines longer than this are cut in a diff: ~/.claude.json can hold very long ones. */
const MAX_LINE = 160;
/** Above this many cells the middle is shown as all removed, then all added. */
const MAX_CELLS = 4_000_000;

type Op = { sign: " " | "-" | "+"; text: string };

function toLines(text: string | null): string[] {
  if (text === null || text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Longest-common-subsequence edit script of two short line lists. */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  if (a.length * b.length > MAX_CELLS) {
    return [...a.map((text): Op => ({ sign: "-", text })), ...b.map((text): Op => ({ sign: "+", text }))];
  }
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i * width + j] = a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] as number) + 1 : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ sign: " ", text: a[i] as string });
      i += 1;
      j += 1;
    } else if (i < a.length && (j === b.length || (lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number))) {
      // Removals first on a tie, as diff -u shows them.
      ops.push({ sign: "-", text: a[i] as string });
      i += 1;
    } else {
      ops.push({ sign: "+", text: b[j] as string });
      j += 1;
    }
  }
  return ops;
}

/**
 * A compact line diff: removed lines start with "-", added with "+", `context` unchanged lines
 * around each change, and "..." where unchanged lines were left out.
 */
export function compactDiff(before: string | null, after: string | null, context = 1): string[] {
  const a = toLines(before);
  const b = toLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;
  const ops: Op[] = [
    ...a.slice(0, head).map((text): Op => ({ sign: " ", text })),
    ...editScript(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((text): Op => ({ sign: " ", text })),
  ];
  const keep = ops.map((op) => op.sign !== " ");
  const near = ops.map((_, i) => ops.slice(Math.max(0, i - context), i + context + 1).some((op) => op.sign !== " "));
  const out: string[] = [];
  let skipped = false;
  ops.forEach((op, i) => {
    if (!keep[i] && !near[i]) {
      skipped = true;
      return;
    }
    if (skipped && out.length > 0) out.push("  ...");
    skipped = false;
    const text = op.text.length > MAX_LINE ? `${op.text.slice(0, MAX_LINE - 1)}…` : op.text;
    out.push(`${op.sign} ${text}`.trimEnd());
  });
  return out;
}
