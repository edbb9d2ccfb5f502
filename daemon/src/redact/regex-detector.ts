import type { SecretDetector, SecretType } from "./secret-types.js";

/**
 * A detector from a global regular expression. The redacted span is the named group `secret`
 * when the pattern has one (so that labels, schemes and hosts around it stay readable), else
 * the whole match. `accept` can veto a match that the pattern alone cannot rule out.
 *
 * Every pattern handed to this must run in linear time: each unbounded run has to be anchored
 * by a lookbehind that only succeeds at the start of a run, or be followed by a character it
 * cannot contain, so that no position is rescanned more than a bounded number of times.
 */
export function regexDetector(
  type: SecretType,
  pattern: RegExp,
  accept: (secret: string, match: RegExpExecArray) => boolean = () => true,
): SecretDetector {
  const flags = pattern.flags.includes("d") ? pattern.flags : `${pattern.flags}d`;
  return (text) => {
    const regex = new RegExp(pattern.source, flags);
    const findings = [];
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      if (match[0] === "") {
        regex.lastIndex += 1;
        continue;
      }
      const span = match.indices?.groups?.["secret"] ?? match.indices?.[0];
      if (span === undefined) continue;
      const [start, end] = span;
      if (end > start && accept(text.slice(start, end), match)) findings.push({ type, start, end });
    }
    return findings;
  };
}
