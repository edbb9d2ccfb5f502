export interface Column {
  title: string;
  right?: boolean;
}

/** A Markdown table whose columns line up in a terminal too. */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((c, i) => Math.max(c.title.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    `| ${cells
      .map((cell, i) => (columns[i]?.right ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join(" | ")} |`;
  const rule = `|${columns.map((c, i) => (c.right ? `${"-".repeat((widths[i] ?? 0) + 1)}:` : "-".repeat((widths[i] ?? 0) + 2))).join("|")}|`;
  return [line(columns.map((c) => c.title)), rule, ...rows.map(line)].join("\n");
}

/** Columns from titles: the first left-aligned, the rest right-aligned (numbers). */
export function numericColumns(titles: readonly string[]): Column[] {
  return titles.map((title, i) => ({ title, right: i > 0 }));
}

/** 12345 → "12,345". */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** KiB → MiB with one decimal. */
export function mib(kib: number): string {
  return (kib / 1024).toFixed(1);
}
