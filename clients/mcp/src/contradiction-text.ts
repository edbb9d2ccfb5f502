import type { Contradiction } from "../../../gen/memd/v1/contradiction_pb.js";
import { memoryLine } from "./format.js";

/** A write's answer, followed by what the write found it contradicts when it found anything. */
export function withContradictions(answer: string, contradictions: readonly Contradiction[]): string {
  return contradictions.length === 0 ? answer : `${answer}\n${contradictionText(contradictions)}`;
}

/**
 * What a write found its memory contradicts, and how to settle each: the agent reads this right
 * after its memory_save, memory_checkpoint or memory_update (whose memory is the newer of each
 * pair), so it says what memd did (nothing but queue the pair) and what the agent may do next.
 */
function contradictionText(contradictions: readonly Contradiction[]): string {
  const count = contradictions.length === 1 ? "1 active memory" : `${contradictions.length} active memories`;
  const lines = contradictions.map((c) => `- ${contradictionLine(c)}`);
  return [
    `This may contradict ${count} (memd queued the pair and changed nothing):`,
    ...lines,
    'If the new memory replaces the old one, call memory_settle with the contradiction id and keep "newer": the old one is superseded. ' +
      'If the old one still holds, keep "older"; if both hold, keep "both" (never asked again). Ask the user when you are not sure.',
  ].join("\n");
}

/** `contradiction 7 (auth provider: Auth0 here, Clerk there): ID [kind, project] the other memory`. */
export function contradictionLine(c: Contradiction): string {
  const what = c.subject === "" ? "" : `${c.subject}: `;
  const says = c.newerSays !== "" || c.olderSays !== "" ? ` (${what}${c.newerSays} here, ${c.olderSays} there)` : c.subject === "" ? "" : ` (${c.subject})`;
  return `contradiction ${c.id}${says}: ${c.other ? memoryLine(c.other) : "(the other memory is gone)"}`;
}
