import type { SecretDetector } from "./secret-types.js";
import { regexDetector } from "./regex-detector.js";

// RFC 6750 b64token, the alphabet of bearer credentials.
const CREDENTIAL = "[A-Za-z0-9_.~+/-]+=*";
const SCHEMES = "bearer|basic|token|bot|apikey|negotiate|ntlm|digest";
const SCHEME_WORD = new RegExp(`^(?:${SCHEMES})$`, "i");

/**
 * The credential in an Authorization header, whatever its scheme (Bearer, Basic, Token), in
 * HTTP, curl `-H`, JSON and YAML forms. The header name and scheme stay.
 */
const authorizationHeader = regexDetector(
  "bearer-token",
  new RegExp(
    `(?<![A-Za-z0-9_-])(?:proxy-)?authorization\\\\?["']?[ \\t]*[:=][ \\t]*\\\\?["']?(?:(?:${SCHEMES})[ \\t]+)?(?<secret>${CREDENTIAL})`,
    "gi",
  ),
  // A scheme followed by a placeholder (`Bearer $TOKEN`) leaves the scheme word in the secret's place.
  (credential) => credential.length >= 8 && !SCHEME_WORD.test(credential),
);

/**
 * "Bearer <credential>" outside a header (a log line, a pasted request). Prose says "bearer
 * token" too, so the credential must be long and hold a digit.
 */
const bareBearer = regexDetector(
  "bearer-token",
  new RegExp(`(?<![A-Za-z0-9_-])bearer[ \\t]+(?<secret>${CREDENTIAL})`, "gi"),
  (credential) => credential.length >= 16 && /\d/.test(credential) && /[A-Za-z]/.test(credential),
);

export const findBearerTokens: SecretDetector = (text) => {
  const headers = authorizationHeader(text);
  const taken = new Set(headers.map((f) => f.start));
  return [...headers, ...bareBearer(text).filter((f) => !taken.has(f.start))];
};
