/**
 * Detectors for secrets whose shape gives them away: a vendor prefix (AKIA, ghp_, sk-ant-,
 * xoxb-), a fixed layout (JWTs, PEM blocks) or a label that only a credential wears
 * (aws_secret_access_key). The vendors' own documented formats are the source; lengths are
 * kept a little looser than the vendors' so that older and newer generations still match.
 *
 * A vendor prefix is found inside a word too (`awsAKIA…`, `tokenghp_…`, `stripesk_live_…`):
 * pasted secrets lose the space before them. Glued to a letter or digit before it, a prefix
 * is taken only when what follows it has the vendor's layout or looks random (see
 * `looksRandom`), so that identifiers such as `desk_test_integrationSuite01` stay.
 */
import { MAX_STRUCTURED_SHARE, structuredShare } from "./high-entropy.js";
import { regexDetector } from "./regex-detector.js";
import type { SecretDetector } from "./secret-types.js";

const hasUpperAndLower = (s: string) => /[A-Z]/.test(s) && /[a-z]/.test(s);
const hasLetterAndDigit = (s: string) => /[A-Za-z]/.test(s) && /\d/.test(s);

/** Letters and digits mixed, and little of it words or runs of one class: generated, not written. */
const looksRandom = (s: string) => hasLetterAndDigit(s) && structuredShare(s) < MAX_STRUCTURED_SHARE;

/** True when the match is glued to a letter or digit before it. */
const gluedBefore = (match: RegExpExecArray) => /[A-Za-z0-9]/.test(match.input[match.index - 1] ?? "");

/** An accept check that applies only to a match glued to the word before it. */
const whenGlued =
  (check: (secret: string) => boolean) =>
  (secret: string, match: RegExpExecArray): boolean =>
    !gluedBefore(match) || check(secret);

// Access key ids: long-term (AKIA), temporary STS (ASIA), and the rarer ABIA/ACCA/A3T*. A
// lower-case letter on either side is a word boundary (`awsAKIA…`, `…K9end`); glued to a
// word, the id must hold a digit, as all but a few in a hundred do, which keeps words in
// capitals (`getASIAPACIFICSALESTEAMend`) out. Only AKIA, which starts no word, is taken
// glued to lower-case letters without one.
const awsAccessKey = regexDetector(
  "aws-access-key",
  /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9])/g,
  (id, match) => {
    const around = `${match.input[match.index - 1] ?? ""}${match.input[match.index + id.length] ?? ""}`;
    return /\d/.test(id.slice(4)) || !/[a-z0-9]/i.test(around) || (id.startsWith("AKIA") && !/[0-9]/.test(around));
  },
);

// AKIA at the end of a run of capitals (`AWSKEYAKIA…`): only AKIA, which no word holds, and with a digit.
const awsAccessKeyInCapitals = regexDetector(
  "aws-access-key",
  /(?<=[A-Z0-9])AKIA[A-Z0-9]{16}(?![A-Z0-9])/g,
  (id) => /\d/.test(id.slice(4)),
);

// A 40-character secret after a label only AWS uses: env, ~/.aws/credentials, STS JSON output.
const awsSecretKeyLabelled = regexDetector(
  "aws-secret-key",
  /(?:aws[_.-]?secret|secret[_.-]?access)[_.-]?(?:access[_.-]?)?key\\?["']?[ \t]*(?:=>|:=|[:=])[ \t]*\\?["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
);

// The pair layout of the IAM console's credentials.csv and of most pastes: id, a separator, secret.
const awsSecretKeyPaired = regexDetector(
  "aws-secret-key",
  /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}[\s,;:|'"=]{1,6}(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
  hasUpperAndLower,
);

const githubToken = regexDetector(
  "github-token",
  /(?<!_)(?:gh[pousr]_[A-Za-z0-9]{30,251}|github_pat_[A-Za-z0-9_]{22,244})(?![A-Za-z0-9_])/g,
  whenGlued((token) => looksRandom(token.slice(token.indexOf("_") + 1))),
);

const gitlabToken = regexDetector(
  "gitlab-token",
  /(?<![_-])(?:glpat|gldt|glrt|glptt|glsoat)-[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/g,
  whenGlued((token) => looksRandom(token.slice(token.indexOf("-") + 1))),
);

// sk-ant-api03-…, sk-ant-admin01-…: the layout alone tells, glued or not.
const anthropicKey = regexDetector(
  "anthropic-key",
  /(?<![_-])sk-ant-[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/g,
  whenGlued((key) => /^sk-ant-[a-z]+\d+-/.test(key) || looksRandom(key.slice(7))),
);

// Legacy sk-<48>, and sk-proj-/sk-svcacct-/sk-admin- keys. A key always mixes letters and digits,
// which keeps kebab-case words that happen to start with "sk-" out.
const openaiKey = regexDetector(
  "openai-key",
  /(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/g,
  hasLetterAndDigit,
);

// Glued to a word (`OPENAIsk-proj-…`), where "sk-" ends words such as "task-": only the kinds
// with a named layout, or a legacy key with the base64 of "OpenAI" inside.
const openaiKeyGlued = regexDetector(
  "openai-key",
  /(?<=[A-Za-z0-9])sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,250}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})(?![A-Za-z0-9_-])/g,
  // A generated stretch of 20 or more letters and digits, which kebab-case words never make.
  (key) => (key.match(/[A-Za-z0-9]{20,}/g) ?? []).some(hasLetterAndDigit),
);

// xoxb-<team>-<bot>-<secret>: glued to a word, the numeric ids after the prefix must be there.
const slackToken = regexDetector(
  "slack-token",
  /(?<![_-])(?:xox[abposre]-|xapp-\d-)[A-Za-z0-9-]{10,250}(?![A-Za-z0-9_-])/g,
  whenGlued((token) => /^(?:xox[a-z]-|xapp-\d-)[A-Z0-9]*\d{6,}-/.test(token)),
);

// The path of an incoming webhook is the credential; the host stays so the text still says what it was.
const slackWebhook = regexDetector(
  "slack-webhook",
  /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>[A-Za-z0-9_/-]{8,300})/g,
);

// Secret and restricted keys, live or test (test keys still act on the account), and webhook secrets.
// Publishable pk_ keys are public by design.
const stripeKey = regexDetector(
  "stripe-key",
  /(?<!_)(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}|whsec_[A-Za-z0-9]{24,250})(?![A-Za-z0-9])/g,
  whenGlued((key) => looksRandom(key.slice(key.lastIndexOf("_") + 1))),
);

const googleApiKey = regexDetector(
  "google-api-key",
  /(?<![_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
  whenGlued((key) => looksRandom(key.slice(4))),
);

const npmToken = regexDetector(
  "npm-token",
  /(?<!_)npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
  whenGlued((token) => looksRandom(token.slice(4))),
);

// Header and payload are JSON objects, so both start with eyJ ('{"'); the signature may be empty
// (alg none). The two eyJ parts are layout enough to take one glued to a word (`sessioneyJ…`):
// up to 40 letters and digits before it, counted from the start of the run so that the scan
// stays linear (an unanchored eyJ would rescan a long run from each of its positions).
const jwt = regexDetector(
  "jwt",
  /(?<![A-Za-z0-9_-])[A-Za-z0-9]{0,40}?(?<secret>eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*)/g,
);

export {
  anthropicKey,
  awsAccessKey,
  awsAccessKeyInCapitals,
  awsSecretKeyLabelled,
  awsSecretKeyPaired,
  githubToken,
  gitlabToken,
  googleApiKey,
  jwt,
  npmToken,
  openaiKey,
  openaiKeyGlued,
  slackToken,
  slackWebhook,
  stripeKey,
};

/** The known-format detectors, most specific first (a JWT outranks the bearer header it sits in). */
export const KNOWN_FORMAT_DETECTORS: readonly SecretDetector[] = [
  jwt,
  awsAccessKey,
  awsAccessKeyInCapitals,
  awsSecretKeyLabelled,
  awsSecretKeyPaired,
  githubToken,
  gitlabToken,
  anthropicKey,
  openaiKey,
  openaiKeyGlued,
  slackWebhook,
  slackToken,
  stripeKey,
  googleApiKey,
  npmToken,
];
