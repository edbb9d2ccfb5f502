import type { ServerResponse } from "node:http";
import { type Script, turnFor } from "./script.js";
import { sendJson } from "../../embed/local-http-server.js";
import { openStream, sendEvent } from "./sse.js";

interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  messages?: { role?: string; content?: unknown }[];
}

/** Tool results the conversation carries: user blocks of type tool_result. */
function toolResults(body: MessagesBody): number {
  let count = 0;
  for (const message of body.messages ?? []) {
    if (Array.isArray(message.content)) count += message.content.filter((block) => (block as { type?: string }).type === "tool_result").length;
  }
  return count;
}

/** The tool names a Messages request offers. */
export function messagesToolNames(body: MessagesBody): string[] {
  return (body.tools ?? []).map((tool) => tool.name ?? "");
}

/**
 * Anthropic Messages (POST /v1/messages, with SSE when `stream` is set) and its token count
 * (/v1/messages/count_tokens): what Claude Code and Copilot CLI's anthropic provider call.
 * A request without tools is a side call (a title, a summary) and gets the script's last word.
 */
export function answerMessages(path: string, body: MessagesBody, script: Script, res: ServerResponse, id: number): void {
  if (path.startsWith("/v1/messages/count_tokens")) return sendJson(res, 200, { input_tokens: 100 });
  const offered = messagesToolNames(body);
  const sideCall = offered.length === 0;
  const turn = sideCall ? { text: "OK" } : turnFor(script, toolResults(body), offered);
  const content: Record<string, unknown>[] = [];
  if (turn.text !== "") content.push({ type: "text", text: turn.text });
  if (turn.call) content.push({ type: "tool_use", id: `toolu_${id}`, name: turn.call.name, input: turn.call.input });
  const stopReason = turn.call ? "tool_use" : "end_turn";
  const message = { id: `msg_${id}`, type: "message", role: "assistant", model: body.model ?? "scripted", stop_sequence: null };
  const usage = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (body.stream !== true) return sendJson(res, 200, { ...message, content, stop_reason: stopReason, usage });
  openStream(res);
  sendEvent(res, { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } }, "message_start");
  content.forEach((block, index) => {
    const start = block.type === "text" ? { type: "text", text: "" } : { ...block, input: {} };
    sendEvent(res, { type: "content_block_start", index, content_block: start }, "content_block_start");
    const delta = block.type === "text" ? { type: "text_delta", text: block.text } : { type: "input_json_delta", partial_json: JSON.stringify(block.input) };
    sendEvent(res, { type: "content_block_delta", index, delta }, "content_block_delta");
    sendEvent(res, { type: "content_block_stop", index }, "content_block_stop");
  });
  sendEvent(res, { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 10 } }, "message_delta");
  sendEvent(res, { type: "message_stop" }, "message_stop");
  res.end();
}
