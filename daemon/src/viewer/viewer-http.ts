import fs from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { isLoopbackHost } from "../config/config.js";
import type { Logger } from "../logger.js";
import { dropUnreadBody } from "../server/connect-adapter.js";
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
 * The header the viewer's page signs its API calls with. The page keeps its session id in
 * localStorage, which a browser keeps per origin (scheme, host and port): a server on another
 * port of 127.0.0.1 can neither read it nor overwrite it. A cookie would not do: browsers send
 * cookies to every port of a host, so any local server the person visits got the session
 * (issue 29), and could set one of its own to sign them out.
 */
export const VIEWER_SESSION_HEADER = "memd-viewer-session";

/** Where the page trades the one-time code from its link for a session id. */
const SESSION_ROUTE = "session";
/** A sign-in code is 64 hex digits; nothing longer is read. */
const MAX_CODE_BODY_BYTES = 256;

/**
 * True when a request comes from the viewer's own page: a live session in its header, and an
 * Origin that is this listener's own (a browser sends Origin with every POST; a page anywhere
 * else has another one). Host was checked to be a loopback name before.
 */
export function fromViewerPage(headers: IncomingHttpHeaders, sessions: ViewerSessions, now: number): boolean {
  const session = headers[VIEWER_SESSION_HEADER];
  if (typeof session !== "string" || !isOwnOrigin(headers)) return false;
  return sessions.touch(session, now);
}

function isOwnOrigin(headers: IncomingHttpHeaders): boolean {
  return headers.origin === `http://${headers.host ?? ""}`;
}

/**
 * The viewer's routes: /ui serves the page (its files hold no data: what it shows comes from the
 * API, which takes a session), and POST /ui/session turns the one-time code from a sign-in link
 * (/ui/#sign-in=<code>: in the fragment, which the browser never sends, logs or passes on as a
 * referrer) into a session id for the page to keep. Returns false for a path that is not the
 * viewer's.
 */
export function createViewerRoutes(options: ViewerHttpOptions): (req: NodeRequest, res: NodeResponse) => boolean {
  const { sessions, dir, now, logger } = options;
  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== VIEWER_PATH && !url.pathname.startsWith(`${VIEWER_PATH}/`)) return false;
    const host = req.headers.host ?? "";
    if (!isLoopbackHost(host.replace(/:\d+$/, ""))) {
      page(res, 403, "Not for this address", `memd only answers requests addressed to localhost, 127.0.0.1 or [::1], not "${escapeHtml(host.slice(0, 80))}".`);
      return true;
    }
    const name = url.pathname.slice(VIEWER_PATH.length).replace(/^\//, "");
    if (name === SESSION_ROUTE) {
      void signIn(req, res, sessions, now, logger);
      return true;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      page(res, 405, "Method not allowed", "The viewer's pages are read with GET; changes go through memd's API.");
      return true;
    }
    const type = FILES[name];
    if (type === undefined) {
      page(res, 404, "Not found", `The viewer has no page "${escapeHtml(name.slice(0, 80))}".`);
      return true;
    }
    serveFile(res, path.join(dir, name === "" ? INDEX : name), type, req.method === "HEAD");
    return true;
  };
}

/** POST /ui/session from the page itself, with the code as its body: answers {"session": id} once per code. */
async function signIn(req: NodeRequest, res: NodeResponse, sessions: ViewerSessions, now: () => number, logger: Logger): Promise<void> {
  if (req.method !== "POST" || !isOwnOrigin(req.headers)) {
    dropUnreadBody(req, res);
    answerJson(res, 403, { error: "a viewer session is made by the viewer's own page, from its sign-in link" });
    return;
  }
  const code = await readSmallBody(req, MAX_CODE_BODY_BYTES);
  const session = code === null ? null : sessions.redeem(code.trim(), now());
  if (session === null) {
    if (code === null) dropUnreadBody(req, res);
    logger.info("viewer sign-in refused: the link was used (a second use also ends the session the first made), expired or never made");
    answerJson(res, 403, { error: "this sign-in link no longer works: a link works once, within a minute, and a second use signs out the first; run memctl ui for a new one" });
    return;
  }
  logger.info("viewer signed in");
  answerJson(res, 200, { session });
}

/** The body as text, or null once it passes `maxBytes` (the rest is left unread). */
function readSmallBody(req: NodeRequest, maxBytes: number): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off("data", onData);
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", () => resolve(null));
  });
}

function answerJson(res: NodeResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": "application/json", "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
  res.end(text);
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
