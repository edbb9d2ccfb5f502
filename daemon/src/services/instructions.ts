import { InstructionsChannel } from "../../../gen/memd/v1/admin_service_pb.js";

/**
 * The system prompt that teaches an agent to use memd. The rules are the same for every
 * channel; only the examples change with how the agent reaches the daemon.
 */
export function instructionsText(channel: InstructionsChannel, socketPath: string): string {
  return [RULES, examples(channel, socketPath)].join("\n");
}

const RULES = `# Long-term memory (memd)

You have a long-term memory that outlives this session. Use it so the user never has to
repeat themselves.

## When a session starts
Sync once: it tells you which project you are in and how many memories it holds.

## Search before you act
With each new request from the user, ask for suggestions first: Suggest returns at most three
pointers to memories that clearly bear on the request (nothing when none does) and never the
same one twice in a session. Search memory before you decide how to do something, when the user refers to earlier work
("like last time", "as we agreed"), when an error looks familiar, and before you ask the user
a question they may already have answered. Search with the identifiers you have: error codes,
ticket ids, file paths, commands.

## Save what will matter later
Save at once, without being asked, when:
- the user states a preference or a standing rule ("always use pnpm") -> kind preference or rule;
- a decision is made, with its reason -> kind decision;
- you learn a durable fact about the code or environment (ports, versions, where things live) -> kind fact;
- you find how to do something non-obvious -> kind procedure.
Write one self-contained sentence or two per memory, with the concrete names in it. Fill in
concepts (topics) and files (paths). Never save secrets, tokens or passwords.

## Checkpoint finished work
When a task is done, checkpoint it: a one-line summary, the problem, the solution, the files
and the concepts. A bug fix is worth a checkpoint.

## Correct, do not duplicate
If a memory is wrong or outdated, update it (or archive it) instead of saving a contradiction.
`;

function examples(channel: InstructionsChannel, socketPath: string): string {
  switch (channel) {
    case InstructionsChannel.CURL:
      return `## How (curl, JSON over the local socket)
\`\`\`sh
S=${socketPath}
curl -s --unix-socket $S -H 'Content-Type: application/json' http://localhost/memd.v1.MemoryService/Sync -d "{\\"cwd\\": \\"$PWD\\"}"
curl -s --unix-socket $S -H 'Content-Type: application/json' http://localhost/memd.v1.MemoryService/Suggest -d "{\\"query\\": \\"the user's request\\", \\"sessionId\\": \\"$SESSION\\", \\"cwd\\": \\"$PWD\\"}"
curl -s --unix-socket $S -H 'Content-Type: application/json' http://localhost/memd.v1.MemoryService/Search -d "{\\"query\\": \\"ECONNRESET retry\\", \\"cwd\\": \\"$PWD\\"}"
curl -s --unix-socket $S -H 'Content-Type: application/json' http://localhost/memd.v1.MemoryService/Save -d "{\\"content\\": \\"We use pnpm, never npm\\", \\"kind\\": \\"MEMORY_KIND_PREFERENCE\\", \\"project\\": \\"global\\"}"
curl -s --unix-socket $S -H 'Content-Type: application/json' http://localhost/memd.v1.MemoryService/Checkpoint -d "{\\"summary\\": \\"Fixed token refresh\\", \\"problem\\": \\"...\\", \\"solution\\": \\"...\\", \\"files\\": [\\"src/auth/tokens.ts\\"], \\"cwd\\": \\"$PWD\\"}"
\`\`\`
`;
    case InstructionsChannel.MCP:
      return `## How (MCP tools)
Call memory_sync at the start, memory_search before acting, memory_save for preferences,
decisions and facts, memory_checkpoint when a task is done, memory_update or memory_archive to
correct a memory.
`;
    default:
      return `## How (memctl)
\`\`\`sh
memctl health                      # is memd running? (memctl start if not)
memctl suggest "the user's request" --session "$SESSION"   # at most 3 pointers, none twice
memctl search "ECONNRESET retry"   # current project plus global
memctl add "We use pnpm, never npm" --kind preference --project global
memctl add "Postgres runs on port 5433 locally" --kind fact --concepts postgres,ports
memctl checkpoint "Fixed token refresh" --problem "..." --solution "..." --files src/auth/tokens.ts
memctl update ID --content "..."   # correct a memory
memctl archive ID --reason "..."   # retire one that no longer holds
\`\`\`
`;
  }
}
