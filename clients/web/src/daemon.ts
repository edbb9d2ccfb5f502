import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AdminService } from "../../../gen/memd/v1/admin_service_pb.js";
import { ChangeService } from "../../../gen/memd/v1/change_service_pb.js";
import { ContradictionService } from "../../../gen/memd/v1/contradiction_service_pb.js";
import { InjectionService } from "../../../gen/memd/v1/injection_service_pb.js";
import { MemoryService } from "../../../gen/memd/v1/memory_service_pb.js";
import { SkillService } from "../../../gen/memd/v1/skill_service_pb.js";
import { VaultService } from "../../../gen/memd/v1/vault_service_pb.js";

/**
 * The viewer's session id, kept in localStorage: the browser keeps that per origin (scheme, host
 * and port), so no other server on this machine can read it or plant one, as any of them could a
 * cookie for 127.0.0.1. The daemon reads it from this header (daemon/src/viewer/viewer-http.ts).
 */
const SESSION_KEY = "memd-viewer-session";
const SESSION_HEADER = "memd-viewer-session";
/** The fragment of a sign-in link that `memctl ui` opens: /ui/#sign-in=<one-time code>. */
const SIGN_IN_FRAGMENT = "#sign-in=";

const withSession: Interceptor = (next) => (req) => {
  req.header.set(SESSION_HEADER, localStorage.getItem(SESSION_KEY) ?? "");
  return next(req);
};

/**
 * The daemon's own Connect API, on the origin the page was served from, each call signed with
 * the viewer's session. Nothing in the page decides what the daemon decides.
 */
const transport = createConnectTransport({ baseUrl: location.origin, interceptors: [withSession] });
export const memory = createClient(MemoryService, transport);
export const admin = createClient(AdminService, transport);
export const vault = createClient(VaultService, transport);
export const skills = createClient(SkillService, transport);
export const changes = createClient(ChangeService, transport);
export const injections = createClient(InjectionService, transport);
export const contradictions = createClient(ContradictionService, transport);

/**
 * Signs in from a link's one-time code, when the page was opened from one: the code leaves the
 * address bar and the history first, then the daemon trades it for a session id, which replaces
 * any this browser kept. Throws with the daemon's reason when the link no longer works.
 */
export async function signInFromLink(): Promise<void> {
  if (!location.hash.startsWith(SIGN_IN_FRAGMENT)) return;
  const code = location.hash.slice(SIGN_IN_FRAGMENT.length);
  history.replaceState(null, "", `${location.pathname}#/`);
  const answer = await fetch("/ui/session", { method: "POST", body: code, cache: "no-store" });
  const body = (await answer.json()) as { session?: string; error?: string };
  if (!answer.ok || body.session === undefined) throw new Error(body.error ?? `memd answered ${answer.status}`);
  localStorage.setItem(SESSION_KEY, body.session);
}
