import type { ServerResponse } from "node:http";
import { type Script, turnFor } from "./script.js";
import { sendJson } from "../../embed/local-http-server.js";
import { openStream, sendEvent } from "./sse.js";

interface Part {
  text?: string;
  functionResponse?: unknown;
}

interface GenerateBody {
  contents?: { role?: string; parts?: Part[] }[];
  tools?: { functionDeclarations?: { name?: string }[] }[];
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: JsonSchema; responseSchema?: JsonSchema };
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
}

/**
 * A value that satisfies a JSON-mode request's schema, for Gemini CLI's side calls (the
 * next-speaker check, the model router): the user speaks next, and an enum takes its first value.
 */
function valueFor(schema: JsonSchema | undefined, key = ""): unknown {
  if (schema === undefined) return {};
  if (schema.enum !== undefined) return key === "next_speaker" && schema.enum.includes("user") ? "user" : schema.enum[0];
  const type = (Array.isArray(schema.type) ? schema.type[0] : schema.type)?.toLowerCase();
  switch (type) {
    case "object":
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, inner]) => [name, valueFor(inner, name)]));
    case "array":
      return [];
    case "boolean":
      return false;
    case "number":
    case "integer":
      return 0;
    default:
      return "scripted";
  }
}

/** The function names a generateContent request offers. */
export function geminiToolNames(body: GenerateBody): string[] {
  return (body.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((fn) => fn.name ?? ""));
}

/**
 * Gemini's generateContent and streamGenerateContent (POST /v1beta/models/<model>:<method>,
 * `alt=sse` for the stream) and countTokens: what Gemini CLI calls. A request without tools is
 * a side call: JSON mode gets a value of its schema, else the script's plain "OK".
 */
export function answerGemini(path: string, body: GenerateBody, script: Script, res: ServerResponse): void {
  if (/:countTokens\b/.test(path)) return sendJson(res, 200, { totalTokens: 100 });
  const offered = geminiToolNames(body);
  const results = (body.contents ?? []).flatMap((content) => content.parts ?? []).filter((part) => part.functionResponse !== undefined).length;
  const config = body.generationConfig;
  let parts: Record<string, unknown>[];
  if (offered.length === 0) {
    const json = config?.responseMimeType === "application/json";
    parts = [{ text: json ? JSON.stringify(valueFor(config?.responseJsonSchema ?? config?.responseSchema)) : "OK" }];
  } else {
    const turn = turnFor(script, results, offered);
    parts = [...(turn.text === "" ? [] : [{ text: turn.text }]), ...(turn.call ? [{ functionCall: { name: turn.call.name, args: turn.call.input } }] : [])];
  }
  const answer = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: "scripted",
  };
  if (!/:streamGenerateContent\b/.test(path)) return sendJson(res, 200, answer);
  openStream(res);
  sendEvent(res, answer);
  res.end();
}
