import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { Code, ConnectError } from "@connectrpc/connect";
import { isLoopbackHost } from "../config/config.js";

/**
 * Guards the loopback TCP listener from a request's headers alone, so that nothing of a refused
 * request's body is read: a Host that is not a loopback name is refused (DNS rebinding from a
 * browser), then the bearer token must be one of `tokens`, or the request must come from the web
 * viewer's own page with a live session (`fromViewerPage`). Returns the refusal, or null to let
 * it through.
 */
export function tcpRequestRefusal(
  tokens: readonly string[],
  fromViewerPage: (headers: IncomingHttpHeaders) => boolean = () => false,
): (headers: IncomingHttpHeaders) => ConnectError | null {
  const accepted = tokens.map((token) => Buffer.from(`Bearer ${token}`));
  return (headers) => {
    const host = headers.host ?? (headers[":authority"] as string | undefined) ?? "";
    if (!isLoopbackHost(host.replace(/:\d+$/, ""))) {
      return new ConnectError(
        `Host "${host.slice(0, 80)}" is not a loopback name; memd only answers requests addressed to localhost, 127.0.0.1 or [::1]`,
        Code.PermissionDenied,
      );
    }
    const authorization = headers.authorization ?? "";
    // The web viewer's own page signs its calls with its session header instead (viewer/viewer-http.ts).
    if (authorization === "" && fromViewerPage(headers)) return null;
    const given = Buffer.from(authorization);
    if (!accepted.some((expected) => given.length === expected.length && timingSafeEqual(given, expected))) {
      return new ConnectError(
        authorization === ""
          ? "missing bearer token: send 'Authorization: Bearer <token>' with the token from MEMD_HOME/token"
          : "wrong bearer token: use the token in MEMD_HOME/token",
        Code.Unauthenticated,
      );
    }
    return null;
  };
}

/**
 * The hook routes' guard on the TCP listener: the hook token (MEMD_HOME/hook-token, which can
 * call nothing but the hook routes, so that one written into an agent's settings file cannot
 * read or change memories through the RPCs) or the full token, and no browser: an agent's hook
 * sends no Origin, a web page always does.
 */
export function hookRequestRefusal(token: string, hookToken: string): (headers: IncomingHttpHeaders) => ConnectError | null {
  const refusal = tcpRequestRefusal([hookToken, token]);
  return (headers) => {
    if (headers.origin !== undefined) {
      return new ConnectError(`hook routes answer agents, not web pages (Origin ${JSON.stringify(headers.origin.slice(0, 80))})`, Code.PermissionDenied);
    }
    return refusal(headers);
  };
}
