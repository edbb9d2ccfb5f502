import zlib from "node:zlib";
import { Code } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import type { Exchange } from "./http-exchange.js";

const END_STREAM = 0x02;
const GRPC_WEB_TRAILER = 0x80;

/** Every code the Connect protocol documents, as it spells them on the wire. */
export const CONNECT_CODES = new Set(Object.values(Code).filter((v): v is Code => typeof v === "number").map((code) => codeToString(code)));

/**
 * The Connect code an answer carries, wherever its protocol puts it: "ok" for success, a code
 * such as "invalid_argument", or "http 404" for an answer without one (refused before any RPC:
 * an unknown path, a method or media type the RPC does not take, a request Node cannot parse).
 */
export function answerCode(answer: Exchange): string {
  const contentType = String(answer.headers["content-type"] ?? "");
  if (contentType.startsWith("application/grpc-web")) {
    const status = answer.headers["grpc-status"] ?? trailerOfGrpcWeb(answer.body);
    return status === undefined ? `http ${answer.status}` : grpcCode(String(status));
  }
  if (contentType.startsWith("application/grpc")) {
    const status = answer.trailers["grpc-status"] ?? answer.headers["grpc-status"];
    return status === undefined ? `http ${answer.status}` : grpcCode(String(status));
  }
  if (contentType.startsWith("application/connect+") && answer.status === 200) {
    const end = lastEnvelope(answer.body, END_STREAM);
    if (end === null) return "no end of stream";
    const parsed = JSON.parse(end.toString("utf8")) as { error?: { code?: string } };
    return parsed.error ? String(parsed.error.code) : "ok";
  }
  if (answer.status === 200) return "ok";
  if (contentType.startsWith("application/json")) {
    try {
      const encoding = answer.headers["content-encoding"];
      const body = encoding === "gzip" ? zlib.gunzipSync(answer.body) : encoding === "br" ? zlib.brotliDecompressSync(answer.body) : answer.body;
      return String((JSON.parse(body.toString("utf8")) as { code?: string }).code);
    } catch {
      return `http ${answer.status} with a body that is not JSON`;
    }
  }
  return `http ${answer.status}`;
}

/** Whether an answer to bad input is acceptable: success, a documented code other than internal or unknown, or a refusal below 500. */
export function isAcceptableAnswer(code: string): boolean {
  if (code.startsWith("http ")) return /^http [1-4]\d\d$/.test(code);
  return code === "ok" || (CONNECT_CODES.has(code) && code !== "internal" && code !== "unknown");
}

function grpcCode(status: string): string {
  const code = Number(status);
  return code === 0 ? "ok" : Code[code] === undefined ? `grpc-status ${status}` : codeToString(code);
}

function trailerOfGrpcWeb(body: Buffer): string | undefined {
  const trailer = lastEnvelope(body, GRPC_WEB_TRAILER);
  return trailer?.toString("utf8").match(/grpc-status:\s*(\d+)/i)?.[1];
}

function lastEnvelope(body: Buffer, flag: number): Buffer | null {
  let found: Buffer | null = null;
  for (let at = 0; at + 5 <= body.length; ) {
    const length = body.readUInt32BE(at + 1);
    if ((body[at] ?? 0) & flag) found = body.subarray(at + 5, at + 5 + length);
    at += 5 + length;
  }
  return found;
}
