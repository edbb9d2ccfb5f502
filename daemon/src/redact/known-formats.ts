/**
 * Detectors for secrets whose shape gives them away: a vendor prefix (AKIA, ghp_, sk-ant-,
 * xoxb-), a fixed layout (JWTs, PEM blocks) or a label that only a credential wears
 * (aws_secret_access_key). The vendors' own documented formats are the source; lengths are
 * kept a little looser than the vendors' so that older and newer generations still match.
 */
import { regexDetector } from "./regex-detector.js";
import type { SecretDetector } from "./secret-types.js";

const hasUpperAndLower = (s: string) => /[A-Z]/.test(s) && /[a-z]/.test(s);
const hasLetterAndDigit = (s: string) => /[A-Za-z]/.test(s) && /\d/.test(s);

// Access key ids: long-term (AKIA), temporary STS (ASIA), and the rarer ABIA/ACCA/A3T*.
const awsAccessKey = regexDetector(
  "aws-access-key",
  /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g,
);

// A 40-character secret after a label only AWS uses: env, ~/.aws/credentials, STS JSON output.
const awsSecretKeyLabelled = regexDetector(
  "aws-secret-key",
  /(?<![A-Za-z0-9])(?:aws[_.-]?secret|secret[_.-]?access)[_.-]?(?:access[_.-]?)?key\\?["']?[ \t]*(?:=>|:=|[:=])[ \t]*\\?["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
);

// The pair layout of the IAM console's credentials.csv and of most pastes: id, a separator, secret.
const awsSecretKeyPaired = regexDetector(
  "aws-secret-key",
  /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}[\s,;:|'"=]{1,6}(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
  hasUpperAndLower,
);

const githubToken = regexDetector(
  "github-token",
  /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,251}|github_pat_[A-Za-z0-9_]{22,244})(?![A-Za-z0-9_])/g,
);

const gitlabToken = regexDetector(
  "gitlab-token",
  /(?<![A-Za-z0-9_-])(?:glpat|gldt|glrt|glptt|glsoat)-[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/g,
);

const anthropicKey = regexDetector(
  "anthropic-key",
  /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/g,
);

// Legacy sk-<48>, and sk-proj-/sk-svcacct-/sk-admin- keys. A key always mixes letters and digits,
// which keeps kebab-case words that happen to start with "sk-" out.
const openaiKey = regexDetector(
  "openai-key",
  /(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/g,
  hasLetterAndDigit,
);

const slackToken = regexDetector(
  "slack-token",
  /(?<![A-Za-z0-9_-])(?:xox[abposre]-|xapp-\d-)[A-Za-z0-9-]{10,250}(?![A-Za-z0-9_-])/g,
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
  /(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}|whsec_[A-Za-z0-9]{24,250})(?![A-Za-z0-9])/g,
);

const googleApiKey = regexDetector(
  "google-api-key",
  /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
);

const npmToken = regexDetector("npm-token", /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g);

// Header and payload are JSON objects, so both start with eyJ ('{"'); the signature may be empty (alg none).
const jwt = regexDetector(
  "jwt",
  /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
);

export {
  anthropicKey,
  awsAccessKey,
  awsSecretKeyLabelled,
  awsSecretKeyPaired,
  githubToken,
  gitlabToken,
  googleApiKey,
  jwt,
  npmToken,
  openaiKey,
  slackToken,
  slackWebhook,
  stripeKey,
};

/** The known-format detectors, most specific first (a JWT outranks the bearer header it sits in). */
export const KNOWN_FORMAT_DETECTORS: readonly SecretDetector[] = [
  jwt,
  awsAccessKey,
  awsSecretKeyLabelled,
  awsSecretKeyPaired,
  githubToken,
  gitlabToken,
  anthropicKey,
  openaiKey,
  slackWebhook,
  slackToken,
  stripeKey,
  googleApiKey,
  npmToken,
];
