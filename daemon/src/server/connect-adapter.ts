import { fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type ConnectRouterOptions, type ContextValues, createConnectRouter } from "@connectrpc/connect";
import {
  compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse,
} from "@connectrpc/connect-node";
import { readAllBytes, type UniversalHandler, type UniversalServerRequest, type UniversalServerResponse } from "@connectrpc/connect/protocol";
import { codeToHttpStatus, contentTypeUnaryProto, errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import type { Logger } from "../logger.js";
import type { NodeHandler } from "./protocol-sniff.js";

export interface ConnectHandlerOptions extends ConnectRouterOptions {
  routes: (router: ConnectRouter) => void;
  contextValues?: (req: IncomingMessage | Http2ServerRequest) => ContextValues;
  logger: Logger;
  readMaxBytes: number;
}

/**
 * connect-node's adapter, with three differences: handler failures go to our logger instead of
 * the console, a request without a usable Host is refused instead of throwing, and a Connect
 * unary request whose binary body is not a valid message is answered with invalid_argument. (Connect reports that as internal, following gRPC; for memd
 * a malformed request is the caller's mistake and must say so.)
 */
export function createConnectHandler(options: ConnectHandlerOptions): NodeHandler {
  const router = createConnectRouter({ acceptCompression: [compressionGzip, compressionBrotli], ...options });
  options.routes(router);
  const paths = new Map(router.handlers.map((handler) => [handler.requestPath, handler]));
  return (req, res) => {
    const handler = paths.get(req.url?.split("?", 2)[0] ?? "");
    if (!handler) {
      res.writeHead(404);
      res.end();
      return;
    }
    let uReq: UniversalServerRequest;
    try {
      uReq = universalRequestFromNodeRequest(req, res, undefined, options.contextValues?.(req));
    } catch (error) {
      // connect-node builds the request's URL from its Host (or :authority), and throws outside
      // any handler when there is none it can parse: an HTTP/1.0 request without Host, an empty
      // Host, "::1". That must be the caller's error, not the end of the daemon.
      options.logger.warn({ err: error, host: req.headers.host ?? null }, "request refused: no usable Host");
      const refusal = new ConnectError(`the request has no usable Host header (got ${JSON.stringify(req.headers.host ?? null)}): send Host: localhost`, Code.InvalidArgument);
      res.writeHead(codeToHttpStatus(refusal.code), { "content-type": "application/json" });
      res.end(errorToJsonBytes(refusal, {}));
      return;
    }
    serve(handler, uReq, options.readMaxBytes)
      .then((uRes) => universalResponseToNodeResponse(uRes, res))
      .catch((reason: unknown) => {
        if (ConnectError.from(reason).code === Code.Aborted) return;
        options.logger.error({ err: reason, rpc: `${handler.service.typeName}/${handler.method.name}` }, "handler failed");
      });
  };
}

async function serve(handler: UniversalHandler, uReq: UniversalServerRequest, readMaxBytes: number): Promise<UniversalServerResponse> {
  const contentType = (uReq.header.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  const encoding = uReq.header.get("content-encoding") ?? "identity";
  if (handler.method.methodKind !== "unary" || contentType !== contentTypeUnaryProto || encoding !== "identity") {
    return handler(uReq);
  }
  const body = await readAllBytes(uReq.body as AsyncIterable<Uint8Array>, readMaxBytes);
  try {
    fromBinary(handler.method.input, body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return errorResponse(
      new ConnectError(`the request body is not a valid ${handler.method.input.typeName} in binary protobuf: ${reason}`, Code.InvalidArgument),
    );
  }
  return handler({ ...uReq, body: oneChunk(body) });
}

function errorResponse(error: ConnectError): UniversalServerResponse {
  return {
    status: codeToHttpStatus(error.code),
    header: new Headers({ "content-type": "application/json" }),
    body: oneChunk(errorToJsonBytes(error, {})),
  };
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
