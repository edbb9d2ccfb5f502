import { refuseSecretIn } from "../memory/identifier-secrets.js";

/** Who an answer of Brief, Suggest or Recall goes to, as the injection record keeps it. */
export interface InjectionCaller {
  sessionId: string;
  agent: string;
  /** The hook event or tool that asked, or the RPC's name when the caller named none. */
  via: string;
}

/**
 * The caller a request names. The three are identifiers the record is listed and grouped by,
 * so each is refused, not redacted, when it holds a secret (see refuseSecretIn); their sizes
 * are bounded with every field's (server/field-bounds.ts).
 */
export function injectionCaller(req: { sessionId: string; sourceAgent: string; via: string }, rpc: string): InjectionCaller {
  return {
    sessionId: refuseSecretIn("session_id", req.sessionId.trim()),
    agent: refuseSecretIn("source_agent", req.sourceAgent.trim()),
    via: refuseSecretIn("via", req.via.trim()) || rpc,
  };
}
