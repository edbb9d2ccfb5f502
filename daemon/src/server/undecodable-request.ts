import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError, type ContextValues, createContextKey, type Interceptor } from "@connectrpc/connect";
import { type Compression, readAllBytes, type UniversalHandler, type UniversalServerRequest, type UniversalServerResponse } from "@connectrpc/connect/protocol";
import { errorFromJsonBytes } from "@connectrpc/connect/protocol-connect";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { trailerFlag, trailerParse } from "@connectrpc/connect/protocol-grpc-web";
import { encodableError, refusalResponse } from "./refusal-response.js";

/*
 * Connect answers internal when it cannot decode a request (following gRPC): a binary message
 * that does not parse, a compressed envelope without an encoding, a truncated gzip body, bad
 * base64 in a GET. For memd each is the caller's mistake and must say so. Rather than check
 * each case again before connect does, the rule is where the failure happens: whatever fails
 * before a decoded request reaches the interceptors was the request's fault.
 */

interface DecodeState {
  decoded: boolean;
}

const decodeStateKey = createContextKey<DecodeState | null>(null, { description: "whether connect decoded the request" });

// An error answer of a unary call that never reached the interceptors is a few hundred bytes.
const ERROR_ANSWER_MAX_BYTES = 64 * 1024;

/** Starts tracking one request; the returned state says whether connect decoded it. */
export function trackDecoding(values: ContextValues): DecodeState {
  const state = { decoded: false };
  values.set(decodeStateKey, state);
  return state;
}

/**
 * The outermost interceptor. A unary request that reaches it was decoded; a streaming request
 * is decoded while its messages are read, so a failure to read them becomes invalid_argument.
 */
export function decodeGuardInterceptor(): Interceptor {
  return (next) => async (req) => {
    const state = req.contextValues.get(decodeStateKey);
    if (state) state.decoded = true;
    if (!req.stream) return next(req);
    return next({ ...req, message: invalidWhenUnreadable(req.message, req.method) });
  };
}

async function* invalidWhenUnreadable<T>(messages: AsyncIterable<T>, method: DescMethod): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (error) {
    if (error instanceof ConnectError && error.code !== Code.Internal) throw encodableError(error);
    throw encodableError(notDecodable(method, ConnectError.from(error).rawMessage, error));
  }
}

/** A compression whose failure to decompress a request is the request's fault, not internal. */
export function strictDecompression(compression: Compression): Compression {
  return {
    name: compression.name,
    compress: (bytes) => compression.compress(bytes),
    decompress: (bytes, readMaxBytes) =>
      compression.decompress(bytes, readMaxBytes).catch((error: unknown) => {
        const connectError = ConnectError.from(error);
        if (connectError.code !== Code.Internal) throw connectError;
        const detail = connectError.cause instanceof Error ? connectError.cause.message : connectError.rawMessage;
        throw new ConnectError(`the request body is not valid ${compression.name}: ${detail}`, Code.InvalidArgument, undefined, undefined, error);
      }),
  };
}

/**
 * Serves a call, turning an internal error that connect gave before the request was decoded into
 * invalid_argument: for a unary call connect decodes before the interceptors, and its error is
 * already in the answer. Other answers pass through unchanged.
 */
export async function serveWithDecodeErrorsAsInvalid(
  handler: UniversalHandler,
  uReq: UniversalServerRequest,
  state: DecodeState,
  requestContentType: string | null,
): Promise<UniversalServerResponse> {
  const { method } = handler;
  let uRes: UniversalServerResponse;
  let body: Uint8Array;
  try {
    uRes = await handler(uReq);
    if (state.decoded || method.methodKind !== "unary") return uRes;
    // Read to the end, so that a gRPC call's trailer has its status.
    body = uRes.body ? await readAllBytes(uRes.body, ERROR_ANSWER_MAX_BYTES) : new Uint8Array(0);
  } catch (failure) {
    if (state.decoded) throw failure;
    // connect could not even write its error, such as one that quotes a lone surrogate of the request.
    return refusalResponse(requestContentType, notDecodable(method, "its message could not be decoded", failure));
  }
  const error = errorInAnswer(uRes, body);
  if (error?.code !== Code.Internal) return { ...uRes, body: oneChunk(body) };
  return refusalResponse(requestContentType, notDecodable(method, error.rawMessage, error.cause));
}

function notDecodable(method: DescMethod, reason: string, cause: unknown): ConnectError {
  // connect says only "internal error" for a failure that is not its own, such as bad base64.
  const why = reason === "internal error" ? "its encoding, compression or base64 is malformed" : reason;
  return new ConnectError(`the request is not a valid ${method.input.typeName}: ${why}`, Code.InvalidArgument, undefined, undefined, cause);
}

/** The error an answer carries, wherever its protocol puts it; null when it carries none memd can read. */
function errorInAnswer(uRes: UniversalServerResponse, body: Uint8Array): ConnectError | null {
  const contentType = uRes.header?.get("content-type") ?? "";
  if (contentType.startsWith("application/grpc-web")) {
    // One trailer envelope (flags, a 4-byte length, the trailer's lines), left alone if compressed.
    if (body.length < 5 || body[0] !== trailerFlag) return null;
    return findTrailerError(trailerParse(body.subarray(5))) ?? null;
  }
  if (contentType.startsWith("application/grpc")) return findTrailerError(uRes.trailer ?? uRes.header ?? new Headers()) ?? null;
  if (uRes.status === 200 || !contentType.startsWith("application/json") || uRes.header?.has("content-encoding")) return null;
  try {
    return errorFromJsonBytes(body, undefined, new ConnectError("unreadable error answer", Code.Unknown));
  } catch {
    return null;
  }
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
