/**
 * memd's secret redactor: every text bound for the database, a log or an export passes through
 * here first, and each secret in it is replaced by `[REDACTED:<type>]`. Pure and linear in the
 * length of the text.
 *
 * Detectors run in order of specificity, and a span that overlaps one already accepted is
 * dropped: a GitHub token inside `GH_TOKEN=...` is a github-token, not a password-assignment,
 * and a JWT inside an Authorization header is a jwt. Markers from an earlier pass count as
 * accepted spans that are never replaced, which makes redaction idempotent. The detectors read
 * the text as it looks (detection-text.ts: invisible characters dropped, NFKC, look-alike
 * letters folded); what they find is replaced in the text as it was written.
 */
import { findBearerTokens } from "./bearer-token.js";
import { findCommandLineCredentials } from "./command-line-credentials.js";
import { detectionText } from "./detection-text.js";
import { findHighEntropyTokens } from "./high-entropy.js";
import { KNOWN_FORMAT_DETECTORS } from "./known-formats.js";
import { findPasswordAssignments } from "./password-assignment.js";
import { findPrivateKeys } from "./private-key.js";
import { MARKER_PATTERN, redactionMarker, type SecretDetector, type SecretFinding } from "./secret-types.js";
import { findUrlPasswords } from "./url-password.js";

export type { SecretFinding, SecretType } from "./secret-types.js";
export { SECRET_TYPES } from "./secret-types.js";

/**
 * Every detector but the high-entropy catch-all, most specific first. Command-line forms come
 * after assignments so that `--password X` stays a password-assignment on every program.
 */
const DETECTORS: readonly SecretDetector[] = [
  findPrivateKeys,
  ...KNOWN_FORMAT_DETECTORS,
  findUrlPasswords,
  findBearerTokens,
  findPasswordAssignments,
  findCommandLineCredentials,
];

export interface RedactionResult {
  /** The input with each secret replaced by its marker. */
  text: string;
  /** What was replaced, in order, with positions in the input. */
  findings: SecretFinding[];
}

/** Replaces every secret in `text` by `[REDACTED:<type>]` and says what it replaced and where. */
export function redactSecrets(text: string): RedactionResult {
  const findings = findSecrets(text, true);
  let redacted = "";
  let at = 0;
  for (const finding of findings) {
    redacted += text.slice(at, finding.start) + redactionMarker(finding.type);
    at = finding.end;
  }
  return { text: redacted + text.slice(at), findings };
}

/** `redactSecrets(text).text`. */
export function redact(text: string): string {
  return redactSecrets(text).text;
}

/** The secrets of `input`, found in its folded text, at their positions in `input`. */
function findSecrets(input: string, withHighEntropy: boolean): SecretFinding[] {
  const folded = detectionText(input);
  const spans: SecretFinding[] = [];
  for (const finding of findFolded(folded.text, withHighEntropy)) {
    const { start, end } = folded.toInput(finding.start, finding.end);
    const last = spans.at(-1);
    // Two findings drawn from one code point (a ligature's two letters) become one span.
    if (last !== undefined && start < last.end) last.end = Math.max(last.end, end);
    else spans.push({ type: finding.type, start, end });
  }
  return spans;
}

function findFolded(text: string, withHighEntropy: boolean): SecretFinding[] {
  // One byte per character: 1 where a marker or an accepted secret already sits.
  const taken = new Uint8Array(text.length);
  for (const marker of text.matchAll(MARKER_PATTERN)) {
    taken.fill(1, marker.index, marker.index + marker[0].length);
  }
  const accepted: SecretFinding[] = [];
  const accept = (finding: SecretFinding) => {
    if (isFree(taken, finding.start, finding.end)) {
      taken.fill(1, finding.start, finding.end);
      accepted.push(finding);
    }
  };
  for (const detect of DETECTORS) {
    for (const finding of detect(text)) accept(finding);
  }
  if (withHighEntropy) {
    // Base64 that decodes to a sentence is prose unless the sentence holds a secret.
    const containsSecret = (decoded: string) => findSecrets(decoded, false).length > 0;
    for (const { start, end } of findHighEntropyTokens(text, taken, containsSecret)) {
      accept({ type: "high-entropy", start, end });
    }
  }
  return accepted.sort((a, b) => a.start - b.start);
}

function isFree(taken: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i += 1) if (taken[i] === 1) return false;
  return true;
}
