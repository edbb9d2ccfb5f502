/**
 * The kinds of secret the redactor knows. The names are stable: they appear in stored text as
 * `[REDACTED:<type>]`, so renaming one would make old and new redactions disagree.
 */
export const SECRET_TYPES = [
  "aws-access-key",
  "aws-secret-key",
  "github-token",
  "gitlab-token",
  "openai-key",
  "anthropic-key",
  "slack-token",
  "slack-webhook",
  "private-key",
  "jwt",
  "url-password",
  "password-assignment",
  "bearer-token",
  "stripe-key",
  "google-api-key",
  "npm-token",
  "command-line-credential",
  "high-entropy",
] as const;

export type SecretType = (typeof SECRET_TYPES)[number];

/** One redacted span: its type and its position in the input (string indices, `end` exclusive). */
export interface SecretFinding {
  type: SecretType;
  start: number;
  end: number;
}

/** Finds candidate secrets in a text; the spans may overlap those of other detectors. */
export type SecretDetector = (text: string) => SecretFinding[];

/** The text that replaces a secret of the given type. */
export function redactionMarker(type: SecretType): string {
  return `[REDACTED:${type}]`;
}

/** Matches a marker already in the text, which must never be redacted again. */
export const MARKER_PATTERN = /\[REDACTED:[a-z0-9-]{1,40}\]/g;
