import { createHash } from "node:crypto";
import type { MemoryRecord } from "../memory/memory.js";

/**
 * What is embedded for a memory: every structured field together, so that a search for
 * "JWT auth bug" finds a memory whose concepts say so even when its content does not.
 */
export function embeddingText(memory: Pick<MemoryRecord, "content" | "problem" | "solution" | "concepts" | "files">): string {
  const parts = [memory.content.trim()];
  if (memory.problem.trim()) parts.push(`Problem: ${memory.problem.trim()}`);
  if (memory.solution.trim()) parts.push(`Solution: ${memory.solution.trim()}`);
  if (memory.concepts.length > 0) parts.push(`Concepts: ${memory.concepts.join(", ")}`);
  if (memory.files.length > 0) parts.push(`Files: ${memory.files.join(", ")}`);
  return parts.join("\n");
}

/** Identifies an embedded text, so a stored vector can be matched to the text it came from. */
export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}
