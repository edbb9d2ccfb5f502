/** Quotes one word for sh -c, which is how Claude Code runs a hook's command string. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_\-./:+@=,%]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
