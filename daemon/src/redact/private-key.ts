import type { SecretFinding } from "./secret-types.js";

/**
 * Finds PEM and PGP private key blocks (RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP ... BLOCK), from
 * the BEGIN line through the END line. A block pasted without its END line (a truncated paste)
 * is taken up to the end of its base64 body, since the body alone is the secret. Works on the
 * JSON-escaped form too, where the line breaks are the two characters `\n`.
 */
export function findPrivateKeys(text: string): SecretFinding[] {
  const begin = /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
  const end = /-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
  const findings: SecretFinding[] = [];
  // The END found for one BEGIN serves every later BEGIN before it; looking it up once per
  // BEGIN would rescan the rest of the text each time, quadratic on a text of many BEGIN lines.
  let nextEnd: RegExpExecArray | null | undefined;
  for (let match = begin.exec(text); match !== null; match = begin.exec(text)) {
    const start = match.index;
    if (nextEnd !== null && (nextEnd === undefined || nextEnd.index < begin.lastIndex)) {
      end.lastIndex = begin.lastIndex;
      nextEnd = end.exec(text);
    }
    const stop = nextEnd ? nextEnd.index + nextEnd[0].length : truncatedBodyEnd(text, begin.lastIndex);
    findings.push({ type: "private-key", start, end: stop });
    begin.lastIndex = stop;
  }
  return findings;
}

function truncatedBodyEnd(text: string, from: number): number {
  // Separators are whitespace or escaped line breaks; chunks are base64 lines and armor headers.
  const body = /(?:(?:\s|\\[nr])+(?:[A-Za-z0-9+/=]{16,}|[A-Za-z-]+:[^\n\\]*))*/y;
  body.lastIndex = from;
  const match = body.exec(text);
  return from + (match?.[0].length ?? 0);
}
