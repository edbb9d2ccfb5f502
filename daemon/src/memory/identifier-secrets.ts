import { InvalidInputError } from "../errors.js";
import { redactSecrets } from "../redact/redact-secrets.js";

/**
 * Refuses an identifier that holds what looks like a secret. session_id, source_agent and
 * project are refused rather than redacted, because they are identifiers: memories are listed,
 * grouped and corroborated by them, and a redacted copy would no longer match the id the caller
 * keeps using (two sessions whose ids held different secrets would even become one). Refusing
 * keeps ids stable and stores nothing secret. The message names the field and the kind of
 * secret, never the value, because clients log it (hooks.log, memctl's stderr).
 *
 * The test is the redactor's, findings of any kind: UUIDs, ULIDs, hex ids and names of agents
 * and folders pass; a random base62 string of 32 characters or more is refused as high-entropy.
 */
export function refuseSecretIn(field: string, value: string): string {
  const [finding] = redactSecrets(value).findings;
  if (finding !== undefined) {
    throw new InvalidInputError(
      `${field} holds what looks like a secret (${finding.type}); memd stores ${field} as given, so it refuses it rather than keep the secret: pass an identifier without it`,
    );
  }
  return value;
}

/** The identifiers a memory carries, each refused if it holds a secret; see `refuseSecretIn`. */
export function refuseSecretIdentifiers(ids: { sessionId: string; sourceAgent: string; project: string }): void {
  refuseSecretIn("session_id", ids.sessionId);
  refuseSecretIn("source_agent", ids.sourceAgent);
  refuseSecretIn("project", ids.project);
}
