import fs from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { isLoopbackHost } from "../config/config.js";
import type { Logger } from "../logger.js";
import type { NodeHandler } from "../server/protocol-sniff.js";
import type { ViewerSessions } from "./viewer-sessions.js";

type NodeRequest = Parameters<NodeHandler>[0];
type NodeResponse = Parameters<NodeHandler>[1];

/** The viewer's pages and files, on the loopback listener only: a browser cannot reach the Unix socket. */
export const VIEWER_PATH = "/ui";

/** The files the page is made of, by the name it asks for: nothing else under the folder is served. */
const FILES: Record<string, string> = {
  "": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
};
const INDEX = "index.html";

/**
 * Sent with everything the viewer serves: its own scripts and styles only, never framed, no
 * referrer leaving the page, no content sniffing.
 */
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

export interface ViewerHttpOptions {
  sessions: ViewerSessions;
  /** The built page (dist/clients/web). */
  dir: string;
  now: () => number;
  logger: Logger;
}

/**
 * The cookie of this listener's viewer session. Browsers keep cookies per host, not per port, so
 * the port is in its name: a second memd (another user's) on another port does not overwrite it.
 */
export function sessionCookieName(headers: IncomingHttpHeaders): string {
  const port = /:(\d+)$/.exec(headers.host ?? "")?.[1] ?? "80";
  return `memd_viewer_${port}`;
}

/** The viewer session id a request carries, if any. */
export function sessionOf(headers: IncomingHttpHeaders): string | undefined {
  const name = sessionCookieName(headers);
  for (const part of (headers.cookie ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

/**
 * True when a request comes from the viewer's own page: a live session cookie, and an Origin
 * that is this listener's own (a browser sends Origin with every POST; a page anywhere else,
 * another local user's server on another port included, has another one). Host was checked
 * to be a loopback name before.
 */
export function fromViewerPage(headers: IncomingHttpHeaders, sessions: ViewerSessions, now: number): boolean {
  const session = sessionOf(headers);
  if (session === undefined || headers.origin !== `http://${headers.host ?? ""}`) return false;
  return sessions.touch(session, now);
}

/**
 * The viewer's routes: /ui/sign-in?code=... turns a one-time link into the session cookie and
 * goes on to the page; /ui serves the page to a signed-in browser and a short explanation to
 * anyone else. Returns false for a path that is not the viewer's.
 */
export function createViewerRoutes(options: ViewerHttpOptions): (req: NodeRequest, res: NodeResponse) => boolean {
  const { sessions, dir, now, logger } = options;
  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== VIEWER_PATH && !url.pathname.startsWith(`${VIEWER_PATH}/`)) return false;
    const host = req.headers.host ?? "";
    if (!isLoopbackHost(host.replace(/:\d+$/, ""))) {
      page(res, 403, "Not for this address", `memd only answers requests addressed to localhost, 127.0.0.1 or [::1], not "${host.slice(0, 80)}".`);
      return true;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      page(res, 405, "Method not allowed", "The viewer's pages are read with GET; changes go through memd's API.");
      return true;
    }
    const name = url.pathname.slice(VIEWER_PATH.length).replace(/^\//, "");
    if (name === "sign-in") {
      const session = sessions.redeem(url.searchParams.get("code") ?? "", now());
      if (session === null) {
        logger.info("viewer sign-in refused: the link was used, expired or never made");
        page(res, 403, "This sign-in link no longer works", "A link works once, within a minute. Run <code>memctl ui</code> for a new one.");
        return true;
      }
      logger.info("viewer signed in");
      res.writeHead(303, {
        ...SECURITY_HEADERS,
        location: `${VIEWER_PATH}/`,
        "cache-control": "no-store",
        "set-cookie": `${sessionCookieName(req.headers)}=${session}; HttpOnly; SameSite=Strict; Path=/`,
      });
      res.end();
      return true;
    }
    const type = FILES[name];
    if (type === undefined) {
      page(res, 404, "Not found", `The viewer has no page "${escapeHtml(name.slice(0, 80))}".`);
      return true;
    }
    const session = sessionOf(req.headers);
    if (session === undefined || !sessions.touch(session, now())) {
      page(res, 401, "Sign in first", "Open the viewer with <code>memctl ui</code>: it signs this browser in with a one-time link.");
      return true;
    }
    serveFile(res, path.join(dir, name === "" ? INDEX : name), type, req.method === "HEAD");
    return true;
  };
}

function serveFile(res: NodeResponse, file: string, type: string, headOnly: boolean): void {
  let body: Buffer;
  try {
    body = fs.readFileSync(file);
  } catch {
    page(res, 500, "The viewer is not built", `memd found no ${escapeHtml(path.basename(file))} in ${escapeHtml(path.dirname(file))}: run npm run build.`);
    return;
  }
  res.writeHead(200, { ...SECURITY_HEADERS, "content-type": type, "content-length": body.length, "cache-control": "no-cache" });
  if (headOnly) res.end();
  else res.end(body);
}

/** A small page of its own for each refusal, so that a person in a browser reads what to do. */
function page(res: NodeResponse, status: number, title: string, html: string): void {
  const body = `<!doctype html><html lang="en"><meta charset="utf-8"><title>memd: ${title}</title><h1>${title}</h1><p>${html}</p></html>\n`;
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(body);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
