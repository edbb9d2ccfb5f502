import { Code, ConnectError, type ConnectRouter, type ConnectRouterOptions, createConnectRouter, createContextValues } from "@connectrpc/connect";
import {
  compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse,
} from "@connectrpc/connect-node";
import type { UniversalHandler, UniversalServerRequest, UniversalServerResponse } from "@connectrpc/connect/protocol";
import type { IncomingHttpHeaders } from "node:http";
import type { Logger } from "../logger.js";
import type { NodeHandler } from "./protocol-sniff.js";
import { createAgentHookRoutes } from "./agent-hook-routes.js";
import { refusalResponse } from "./refusal-response.js";
import { decodeGuardInterceptor, serveWithDecodeErrorsAsInvalid, strictDecompression, trackDecoding } from "./undecodable-request.js";

type NodeRequest = Parameters<NodeHandler>[0];
type NodeResponse = Parameters<NodeHandler>[1];

export interface ConnectHandlerOptions extends ConnectRouterOptions {
  routes: (router: ConnectRouter) => void;
  /** Refuses a request from its headers alone, before its body is read (the TCP listener's token and Host checks). */
  refuse?: (headers: IncomingHttpHeaders) => ConnectError | null;
  /** The same for the agents' hook routes (server/agent-hook-routes.ts), which take the hook token too. */
  refuseHook?: (headers: IncomingHttpHeaders) => ConnectError | null;
  /** Pages served beside the API (the web viewer, on the TCP listener); true when it answered the request. */
  pages?: (req: NodeRequest, res: NodeResponse) => boolean;
  /** Told of every request that passed its guard (`refuse`, `refuseHook`, or none), so that its connection is kept (connection-table.ts). */
  admitted?: (req: NodeRequest) => void;
  logger: Logger;
}

/**
 * connect-node's adapter, beside the agents' hook routes, with four differences: handler failures go to our logger instead of
 * the console; a request without a usable Host is refused instead of throwing; `refuse` answers
 * before a byte of the body is read; and a request connect cannot decode is answered with
 * invalid_argument. (Connect reports that as internal, following gRPC; for memd a malformed
 * request is the caller's mistake and must say so: see undecodable-request.ts.)
 */
export function createConnectHandler(options: ConnectHandlerOptions): NodeHandler {
  const { routes, refuse, refuseHook, pages, admitted, logger, ...routerOptions } = options;
  const router = createConnectRouter({
    ...routerOptions,
    acceptCompression: (routerOptions.acceptCompression ?? [compressionGzip, compressionBrotli]).map(strictDecompression),
    interceptors: [decodeGuardInterceptor(), ...(routerOptions.interceptors ?? [])],
  });
  routes(router);
  const paths = new Map(router.handlers.map((handler) => [handler.requestPath, handler]));
  const hookRoutes = createAgentHookRoutes({ handlers: paths, logger, refuse: refuseHook, admitted });
  return (req, res) => {
    if (hookRoutes(req, res) || pages?.(req, res) === true) return;
    const handler = paths.get(req.url?.split("?", 2)[0] ?? "");
    if (!handler) {
      res.writeHead(404);
      res.end();
      return;
    }
    const contentType = req.headers["content-type"] ?? null;
    const contextValues = createContextValues();
    const decoding = trackDecoding(contextValues);
    let uReq: UniversalServerRequest;
    try {
      uReq = universalRequestFromNodeRequest(req, res, undefined, contextValues);
    } catch (error) {
      // connect-node builds the request's URL from its Host (or :authority), and throws outside
      // any handler when there is none it can parse: an HTTP/1.0 request without Host, an empty
      // Host, "::1". That must be the caller's error, not the end of the daemon.
      logger.warn({ err: error, host: req.headers.host ?? null }, "request refused: no usable Host");
      const refusal = new ConnectError(`the request has no usable Host header (got ${JSON.stringify(req.headers.host ?? null)}): send Host: localhost`, Code.InvalidArgument);
      answerUnread(req, res, refusalResponse(contentType, refusal), logger);
      return;
    }
    const refusal = refuse?.(req.headers);
    if (refusal) {
      logger.info({ code: Code[refusal.code], reason: refusal.rawMessage, rpc: rpcName(handler) }, "request refused before reading its body");
      answerUnread(req, res, refusalResponse(contentType, refusal), logger);
      return;
    }
    admitted?.(req);
    serveWithDecodeErrorsAsInvalid(handler, uReq, decoding, contentType)
      .then((uRes) => universalResponseToNodeResponse(uRes, res))
      .catch((reason: unknown) => {
        if (ConnectError.from(reason).code === Code.Aborted) return;
        logger.error({ err: reason, rpc: rpcName(handler) }, "handler failed");
        // Nothing may leave a caller waiting on an answer that will never come.
        if (!res.headersSent) answer(res, refusalResponse(contentType, new ConnectError("memd failed to answer; the details are in MEMD_HOME/logs/memd.log", Code.Internal)), logger);
        else res.destroy();
      });
  };
}

/** How much of a refused HTTP/1.1 request's body is read (and dropped) before its connection is cut instead. */
const DISCARD_MAX_BYTES = 64 * 1024;

/**
 * Answers a request whose body memd will not use. HTTP/2 resets its stream, so that the client
 * stops sending. HTTP/1.1 has no such signal: closing the connection while the client still
 * writes its body makes the client fail with EPIPE instead of reading the refusal (a clean-clone
 * run saw one call in six end so), so a small body is read and dropped, and a connection whose
 * body goes past DISCARD_MAX_BYTES is cut.
 */
function answerUnread(req: NodeRequest, res: NodeResponse, uRes: UniversalServerResponse, logger: Logger): void {
  dropUnreadBody(req, res);
  answer(res, uRes, logger);
}

/** Lets the client finish sending a body memd will not read, as answerUnread explains; the answer may be written at once. */
export function dropUnreadBody(req: NodeRequest, res: NodeResponse): void {
  if ("stream" in req) res.once("finish", () => req.stream.close());
  else if (!req.readableEnded) {
    let discarded = 0;
    req.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > DISCARD_MAX_BYTES) req.socket.destroy();
    });
    req.resume();
  }
}

function answer(res: NodeResponse, uRes: UniversalServerResponse, logger: Logger): void {
  universalResponseToNodeResponse(uRes, res).catch((reason: unknown) => {
    if (ConnectError.from(reason).code !== Code.Aborted) logger.warn({ err: reason }, "could not send a refusal");
  });
}

function rpcName(handler: UniversalHandler): string {
  return `${handler.service.typeName}/${handler.method.name}`;
}
