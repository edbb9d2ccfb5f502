import { ConnectError } from "@connectrpc/connect";
import { encodeEnvelope, type UniversalServerResponse } from "@connectrpc/connect/protocol";
import {
  codeToHttpStatus, contentTypeStreamJson, contentTypeStreamProto, createEndStreamSerialization, endStreamFlag, errorToJsonBytes,
} from "@connectrpc/connect/protocol-connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";

const endStream = createEndStreamSerialization({});
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The error with every lone surrogate in its message replaced by U+FFFD. A message that quotes
 * the request can hold one, and gRPC's percent-encoding of grpc-message (encodeURIComponent)
 * throws on it: the call would get no answer at all.
 */
export function encodableError(error: ConnectError): ConnectError {
  if (!LONE_SURROGATE.test(error.rawMessage)) return error;
  const message = error.rawMessage.replace(new RegExp(LONE_SURROGATE.source, "g"), "\ufffd");
  const encodable = new ConnectError(message, error.code, error.metadata, undefined, error.cause);
  encodable.details.push(...error.details);
  return encodable;
}

/**
 * An error answer in the protocol the request speaks, for what memd refuses outside connect's
 * handlers (no token, no usable Host, a request connect could not decode). Each client reads the
 * code where its protocol puts it: gRPC and gRPC-web in grpc-status (a trailers-only answer),
 * Connect streaming in the end-of-stream message, Connect unary and anything else in the HTTP
 * status and a JSON body.
 */
export function refusalResponse(requestContentType: string | null, refusal: ConnectError): UniversalServerResponse {
  const error = encodableError(refusal);
  const type = (requestContentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type.startsWith("application/grpc")) {
    const contentType = type.startsWith("application/grpc-web") ? "application/grpc-web+proto" : "application/grpc+proto";
    return { status: 200, header: setTrailerStatus(new Headers({ "content-type": contentType }), error) };
  }
  if (type.startsWith("application/connect+")) {
    const end = endStream.serialize({ error, metadata: new Headers() });
    const contentType = type === contentTypeStreamProto ? contentTypeStreamProto : contentTypeStreamJson;
    return { status: 200, header: new Headers({ "content-type": contentType }), body: oneChunk(encodeEnvelope(endStreamFlag, end)) };
  }
  return {
    status: codeToHttpStatus(error.code),
    header: new Headers({ "content-type": "application/json" }),
    body: oneChunk(errorToJsonBytes(error, {})),
  };
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
