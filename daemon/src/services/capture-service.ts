import type { ServiceImpl } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  CaptureOutcome, CaptureService, type CaptureTranscriptRequest, type CaptureTranscriptResponseSchema,
} from "../../../gen/memd/v1/capture_service_pb.js";
import { checkTranscriptPath } from "../capture/read-transcript.js";
import { settleTranscript } from "../capture/settle-transcript.js";
import type { CapturedMemory } from "../capture/save-candidates.js";
import { MAX_LABEL_CHARS, sweepTranscript } from "../commands/sweep-transcript.js";
import { UnavailableError } from "../errors.js";
import type { TranscriptDistiller } from "../llm/transcript-distiller.js";
import type { Logger } from "../logger.js";
import { refuseSecretIdentifiers } from "../memory/identifier-secrets.js";
import { within } from "../within.js";
import { requestLoggerKey } from "./context.js";
import { contradictionToPb } from "./contradiction-convert.js";
import { memoryToPb } from "./convert.js";
import type { ServiceDeps } from "./deps.js";

const OUTCOMES: Record<CapturedMemory["outcome"], CaptureOutcome> = {
  created: CaptureOutcome.CREATED,
  merged: CaptureOutcome.MERGED,
  "already-saved": CaptureOutcome.ALREADY_SAVED,
};

export interface CaptureServiceHandle {
  service: ServiceImpl<typeof CaptureService>;
  /** Waits for queued background sweeps, at most `timeoutMs`; call before closing the store. */
  drain(timeoutMs: number): Promise<void>;
}

export interface CaptureServiceOptions {
  /** Adds a language model's candidates to the rule-based ones when MEMD_LLM is set; null or absent: rules only. */
  distiller?: TranscriptDistiller | null;
}

/**
 * The transcript sweep (commands/sweep-transcript.ts). Sweeps run one at a time, in arrival
 * order: a hook's sweep runs after its answer, and the daemon waits for queued ones before it
 * closes the database.
 */
export function createCaptureService(deps: ServiceDeps, options: CaptureServiceOptions = {}): CaptureServiceHandle {
  let queue: Promise<void> = Promise.resolve();
  let draining = false;
  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    // After drain gave up waiting the database closes: sweeps still queued must not start.
    const done = queue.then(() => {
      if (draining) throw new UnavailableError("memd is stopping: the transcript sweep did not start; it runs again at the next SessionEnd");
      return work();
    });
    queue = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  };

  const sweep = async (req: CaptureTranscriptRequest, log: Logger): Promise<MessageInitShape<typeof CaptureTranscriptResponseSchema>> => {
    const swept = await sweepTranscript({ ...deps, distiller: options.distiller ?? null }, req, log);
    return {
      accepted: true,
      sessionId: swept.sessionId,
      project: swept.project,
      memories: swept.captured.map((c) => ({
        memory: memoryToPb(c.memory),
        outcome: OUTCOMES[c.outcome],
        reason: c.candidate.reason,
        line: c.candidate.line,
        contradictions: (c.contradictions ?? []).map((found) => contradictionToPb(found, deps.store)),
      })),
      linesRead: swept.linesRead,
      malformedLines: swept.malformedLines,
      overLimit: swept.overLimit,
      truncated: swept.truncated,
    };
  };

  const service: ServiceImpl<typeof CaptureService> = {
    async captureTranscript(req, context) {
      const log = context.values.get(requestLoggerKey);
      // A hook answered at once: the agent may still be writing the transcript it named.
      // Copilot CLI ends its events with session.shutdown, written after its sessionEnd hook;
      // on a loaded machine its events.jsonl may not exist yet when the hook runs.
      const endMarker = !req.wait && req.sourceAgent === "copilot" && req.trigger === "sessionEnd" ? '"type":"session.shutdown"' : undefined;
      // Everything that can be wrong with the request is checked before answering, so that a
      // hook's caller learns it; the sweep itself may still meet a file that changed since.
      checkTranscriptPath(req.transcriptPath, req.sessionId, endMarker !== undefined);
      refuseSecretIdentifiers({ sessionId: req.sessionId, sourceAgent: req.sourceAgent, project: req.project });
      if (req.project !== "" || req.cwd !== "") deps.resolveProject({ project: req.project, cwd: req.cwd });
      if (req.wait) return enqueue(() => sweep(req, log));
      // The wait is outside the queue: a session still being written must not hold up others' sweeps.
      settleTranscript(req.transcriptPath, endMarker)
        .then(() => enqueue(() => sweep(req, log)))
        .catch((error: unknown) => {
          // The error's message may quote a path but never transcript text; its cause stays out.
          log.warn({ trigger: req.trigger.slice(0, MAX_LABEL_CHARS), reason: error instanceof Error ? error.message : String(error) }, "transcript sweep failed");
        });
      return { accepted: true, sessionId: req.sessionId };
    },
  };

  return {
    service,
    async drain(timeoutMs) {
      await within(queue, timeoutMs, () => undefined);
      draining = true;
    },
  };
}
