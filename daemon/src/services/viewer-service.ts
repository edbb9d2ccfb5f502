import type { ServiceImpl } from "@connectrpc/connect";
import { ViewerService } from "../../../gen/memd/v1/viewer_service_pb.js";
import { FailedPreconditionError } from "../errors.js";
import { VIEWER_PATH } from "../viewer/viewer-http.js";
import type { ViewerSessions } from "../viewer/viewer-sessions.js";
import { timeToPb } from "./convert.js";

export interface ViewerServiceDeps {
  sessions: ViewerSessions;
  now: () => number;
  /** The loopback listener's origin (http://127.0.0.1:7345), or null while memd listens on no TCP port. */
  origin: () => string | null;
}

/** ViewerService: one-time sign-in links to the web viewer, and ending its sessions. */
export function createViewerService(deps: ViewerServiceDeps): ServiceImpl<typeof ViewerService> {
  return {
    openViewer() {
      const origin = deps.origin();
      if (origin === null) {
        throw new FailedPreconditionError("memd does not listen on loopback TCP, where the viewer is served: run memctl setup, or start memd with --listen 127.0.0.1:PORT");
      }
      const link = deps.sessions.createLink(deps.now());
      // In the fragment: the browser keeps it to itself, and the page trades it for a session (viewer/viewer-http.ts).
      return { url: `${origin}${VIEWER_PATH}/#sign-in=${link.code}`, expiresAt: timeToPb(link.expiresAt) };
    },

    revokeViewerSessions() {
      return deps.sessions.revokeAll();
    },
  };
}
