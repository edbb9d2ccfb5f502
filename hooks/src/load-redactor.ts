/**
 * The daemon's secret redactor, loaded on first use. The hooks otherwise keep to the transport
 * and gen/, but a copy of the redactor would drift from the one that guards the database and
 * the daemon's log; it is pure, so importing it brings no daemon state along. It loads lazily
 * because it costs about 10 ms of start-up, which the prompt hooks, run on every prompt, would
 * pay for nothing: only a failure (a log line) and a failed command (a trace) need it.
 */
export async function loadRedactor(): Promise<(text: string) => string> {
  const { redact } = await import("../../daemon/src/redact/redact-secrets.js");
  return redact;
}
