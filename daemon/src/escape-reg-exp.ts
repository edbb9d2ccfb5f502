/** `text` matched literally inside a regular expression (Node 20 has no RegExp.escape). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
