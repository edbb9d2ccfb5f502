/**
 * What the scripted model answers. A conversation's turn is picked by how many tool results its
 * request already carries (none: the first turn; one: the second...), so retries and the agents'
 * side calls (titles, classifiers) never move the script along, and the script holds for every
 * protocol alike. Past the end, the model says "Done."
 */
export type Turn = TextTurn | ToolTurn;

export interface TextTurn {
  text: string;
}

export interface ToolTurn {
  /** The tool's name, or a function picking it from the names the request offers (MCP tools are named per agent). */
  tool: string | ((offered: readonly string[]) => string | undefined);
  input: Record<string, unknown>;
  /** Text said before the call. */
  text?: string;
}

export type Script = readonly Turn[];

/** The turn for a request that carries `toolResults` results, with a tool name chosen from `offered`. */
export function turnFor(script: Script, toolResults: number, offered: readonly string[]): { text: string; call?: { name: string; input: Record<string, unknown> } } {
  const turn = script[toolResults];
  if (turn === undefined) return { text: "Done." };
  if (!("tool" in turn)) return { text: turn.text };
  const name = typeof turn.tool === "string" ? turn.tool : turn.tool(offered);
  if (name === undefined) return { text: `No tool among ${offered.length} offered fits the script.` };
  return { text: turn.text ?? "", call: { name, input: turn.input } };
}

/** A picker for an MCP tool whatever prefix or separator the agent gives it (mcp__memd__x, memd-x, mcp_memd_x). */
export function mcpTool(tool: string): (offered: readonly string[]) => string | undefined {
  return (offered) => offered.find((name) => name.endsWith(tool) && /memd/.test(name));
}
