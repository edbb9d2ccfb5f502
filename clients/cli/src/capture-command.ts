import path from "node:path";
import { toJson } from "@bufbuild/protobuf";
import type { Command } from "commander";
import { CaptureOutcomeSchema, CaptureTranscriptResponseSchema } from "../../../gen/memd/v1/capture_service_pb.js";
import { action } from "./context.js";
import { enumName } from "./enums.js";
import { formatMemoryLine } from "./format.js";

export function registerCaptureCommand(program: Command): void {
  program
    .command("capture")
    .description("sweep a session transcript (JSON Lines) for preferences, decisions, facts and fixes nobody saved")
    .argument("<transcript>", "the transcript file, e.g. ~/.claude/projects/<project>/<session>.jsonl")
    .option("--session <id>", "the session it records (default: the id in the transcript, else the file name)")
    .option("-p, --project <name>", "project to save into (default: the working directory recorded in the transcript)")
    .option("--agent <name>", "the agent that wrote it, e.g. claude-code or codex")
    .addHelpText(
      "after",
      "\nPreferences the user stated are saved active; everything else is staged (see memctl staged)." +
        "\nSweeping the same transcript again saves nothing twice.",
    )
    .action(
      action(async (ctx, transcript: string, opts: { session?: string; project?: string; agent?: string }) => {
        const res = await ctx.clients.capture.captureTranscript({
          transcriptPath: path.resolve(transcript),
          sessionId: opts.session,
          project: opts.project,
          sourceAgent: opts.agent,
          trigger: "memctl",
          wait: true,
        });
        if (ctx.json) {
          ctx.printJson(toJson(CaptureTranscriptResponseSchema, res));
          return;
        }
        const skipped = res.malformedLines > 0 ? `, ${res.malformedLines} malformed skipped` : "";
        const tail = res.truncated ? " (tail only: the file is over the size limit)" : "";
        ctx.print(`swept ${res.linesRead} lines${skipped}${tail} of session ${res.sessionId} into ${res.project}`);
        if (res.memories.length === 0) ctx.print("nothing to remember");
        for (const captured of res.memories) {
          if (!captured.memory) continue;
          ctx.print(`${enumName(CaptureOutcomeSchema, captured.outcome).replace(/_/g, " ")}: ${formatMemoryLine(captured.memory)}`);
        }
        if (res.overLimit > 0) ctx.print(`${res.overLimit} more left out: a session stages at most 5 inferred memories`);
      }),
    );
}
