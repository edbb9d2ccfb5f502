import type { ServerResponse } from "node:http";
import { type Script, turnFor } from "./script.js";
import { sendJson } from "../../embed/local-http-server.js";
import { openStream, sendEvent } from "./sse.js";

interface ResponsesBody {
  model?: string;
  stream?: boolean;
  tools?: { type?: string; name?: string; tools?: { name?: string }[] }[];
  input?: { type?: string }[];
}

/** A tool a Responses request offers: Codex sends an MCP server's tools as one `namespace`. */
interface OfferedTool {
  /** The name a script picks it by: the namespace and the tool joined by "__" (mcp__memd__memory_search). */
  offered: string;
  name: string;
  namespace?: string;
}

function responsesTools(body: ResponsesBody): OfferedTool[] {
  return (body.tools ?? []).flatMap((tool): OfferedTool[] =>
    tool.type === "namespace"
      ? (tool.tools ?? []).map((inner) => ({ offered: `${tool.name ?? ""}__${inner.name ?? ""}`, name: inner.name ?? "", namespace: tool.name ?? "" }))
      : [{ offered: tool.name ?? tool.type ?? "", name: tool.name ?? tool.type ?? "" }],
  );
}

/** The tool names a Responses request offers, namespaced ones as namespace__tool. */
export function responsesToolNames(body: ResponsesBody): string[] {
  return responsesTools(body).map((tool) => tool.offered);
}

/** OpenAI Responses (POST /v1/responses, streamed): what Codex calls. */
export function answerResponses(body: ResponsesBody, script: Script, res: ServerResponse, id: number): void {
  const results = (body.input ?? []).filter((item) => typeof item.type === "string" && item.type.endsWith("_call_output")).length;
  const tools = responsesTools(body);
  const turn = tools.length === 0 ? { text: "OK" } : turnFor(script, results, tools.map((tool) => tool.offered));
  const items: Record<string, unknown>[] = [];
  if (turn.text !== "") items.push({ type: "message", id: `msg_${id}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: turn.text, annotations: [] }] });
  if (turn.call) {
    const tool = tools.find((candidate) => candidate.offered === turn.call?.name);
    items.push({
      type: "function_call",
      id: `fc_${id}`,
      call_id: `call_${id}`,
      name: tool?.name ?? turn.call.name,
      ...(tool?.namespace === undefined ? {} : { namespace: tool.namespace }),
      arguments: JSON.stringify(turn.call.input),
      status: "completed",
    });
  }
  const response = { id: `resp_${id}`, object: "response", model: body.model ?? "scripted", status: "completed", output: items };
  const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 };
  if (body.stream !== true) return sendJson(res, 200, { ...response, usage });
  openStream(res);
  sendEvent(res, { type: "response.created", response: { ...response, status: "in_progress", output: [] } }, "response.created");
  items.forEach((item, index) => {
    sendEvent(res, { type: "response.output_item.added", output_index: index, item }, "response.output_item.added");
    if (item.type === "message") sendEvent(res, { type: "response.output_text.delta", item_id: item.id, output_index: index, content_index: 0, delta: turn.text }, "response.output_text.delta");
    sendEvent(res, { type: "response.output_item.done", output_index: index, item }, "response.output_item.done");
  });
  sendEvent(res, { type: "response.completed", response: { ...response, usage } }, "response.completed");
  res.end();
}

interface ChatBody {
  model?: string;
  stream?: boolean;
  tools?: { function?: { name?: string } }[];
  messages?: { role?: string }[];
}

/** The tool names a chat completions request offers. */
export function chatToolNames(body: ChatBody): string[] {
  return (body.tools ?? []).map((tool) => tool.function?.name ?? "");
}

/** OpenAI chat completions (POST /v1/chat/completions, streamed when asked), tool calls included. */
export function answerChat(body: ChatBody, script: Script, res: ServerResponse, id: number): void {
  const offered = chatToolNames(body);
  const results = (body.messages ?? []).filter((message) => message.role === "tool").length;
  const turn = offered.length === 0 ? { text: "OK" } : turnFor(script, results, offered);
  const toolCalls = turn.call ? [{ index: 0, id: `call_${id}`, type: "function", function: { name: turn.call.name, arguments: JSON.stringify(turn.call.input) } }] : undefined;
  const finish = turn.call ? "tool_calls" : "stop";
  const base = { id: `chatcmpl_${id}`, created: Math.floor(Date.now() / 1000), model: body.model ?? "scripted" };
  const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
  if (body.stream !== true) {
    const message = { role: "assistant", content: turn.text === "" ? null : turn.text, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
    return sendJson(res, 200, { ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  openStream(res);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}) =>
    sendEvent(res, { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra });
  chunk({ role: "assistant", content: "" }, null);
  if (turn.text !== "") chunk({ content: turn.text }, null);
  if (toolCalls) chunk({ tool_calls: toolCalls }, null);
  chunk({}, finish, { usage });
  sendEvent(res, "[DONE]");
  res.end();
}
