import path from "node:path";
import type { ServiceImpl } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  CaptureOutcome, CaptureService, type CaptureTranscriptRequest, type CaptureTranscriptResponseSchema,
} from "../../../gen/memd/v1/capture_service_pb.js";
import type { CaptureCandidate } from "../capture/candidate.js";
import { extractCandidates, MAX_STAGED_PER_SESSION } from "../capture/extract-candidates.js";
import { checkTranscriptPath, MAX_TRANSCRIPT_BYTES, readTranscript } from "../capture/read-transcript.js";
import { settleTranscript } from "../capture/settle-transcript.js";
import { type CapturedMemory, saveCandidates } from "../capture/save-candidates.js";
import { InvalidInputError, UnavailableError } from "../errors.js";
import { mergeDistilled } from "../llm/distilled-candidates.js";
import type { TranscriptDistiller } from "../llm/transcript-distiller.js";
import type { Logger } from "../logger.js";
import { GLOBAL_PROJECT } from "../memory/memory.js";
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
const MAX_LABEL_CHARS = 200;

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
 * The transcript sweep. Sweeps run one at a time, in arrival order: a hook's sweep runs after
 * its answer, and the daemon waits for queued ones before it closes the database. Only counts
 * are logged, never what the transcript says.
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
    const started = performance.now();
    const read = await readTranscript(req.transcriptPath, MAX_TRANSCRIPT_BYTES, req.sessionId.trim());
    if (read.linesRead > 0 && read.malformedLines === read.linesRead) {
      throw new InvalidInputError(
        `${req.transcriptPath} is not a JSON Lines transcript: none of its ${read.linesRead} lines is a JSON object`,
      );
    }
    const sessionId = req.sessionId.trim() || read.sessionId || path.basename(req.transcriptPath).replace(/\.[^.]*$/, "");
    // The project comes from the request, else from where the session ran; edited files are
    // named relative to where the session ran.
    const recordedCwd = path.isAbsolute(read.cwd) ? read.cwd : "";
    const project = deps.resolveProject({ project: req.project, cwd: req.cwd || recordedCwd }) ?? GLOBAL_PROJECT;
    // Codex's hooks carry no exit code (agent-hooks/shell-failure.ts): its failed commands are
    // read from the rollout. Other agents' hooks save theirs as they happen.
    const extracted = extractCandidates(read.events, recordedCwd || req.cwd, { shellFailures: req.sourceAgent === "codex" });
    const candidates = options.distiller ? await withDistilled(options.distiller, read.events, extracted, log) : extracted;
    const result = saveCandidates(candidates, {
      store: deps.store,
      newId: deps.newId,
      now: deps.now(),
      limits: deps.limits,
      project,
      sessionId,
      sourceAgent: req.sourceAgent.trim().slice(0, MAX_LABEL_CHARS),
      contradictions: deps.contradictions,
    });
    const count = (outcome: CapturedMemory["outcome"]) => result.captured.filter((c) => c.outcome === outcome).length;
    const created = count("created");
    log.info(
      {
        trigger: req.trigger.slice(0, MAX_LABEL_CHARS),
        sessionId,
        project,
        linesRead: read.linesRead,
        malformedLines: read.malformedLines,
        truncated: read.truncated,
        candidates: candidates.length,
        distilled: candidates.length - extracted.length,
        created,
        merged: count("merged"),
        alreadySaved: count("already-saved"),
        overLimit: result.overLimit,
        invalid: result.invalid,
        ms: Math.round(performance.now() - started),
      },
      "transcript swept",
    );
    return {
      accepted: true,
      sessionId,
      project,
      memories: result.captured.map((c) => ({
        memory: memoryToPb(c.memory),
        outcome: OUTCOMES[c.outcome],
        reason: c.candidate.reason,
        line: c.candidate.line,
        contradictions: (c.contradictions ?? []).map((found) => contradictionToPb(found, deps.store)),
      })),
      linesRead: read.linesRead,
      malformedLines: read.malformedLines,
      overLimit: result.overLimit,
      truncated: read.truncated,
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

/**
 * The rule-based candidates plus the model's new ones. The model's are all staged, so when the
 * rules alone fill the session's staged cap the call is not made; on any failure the rules'
 * candidates stand alone.
 */
async function withDistilled(
  distiller: TranscriptDistiller,
  events: Parameters<TranscriptDistiller["distill"]>[0],
  extracted: CaptureCandidate[],
  log: Logger,
): Promise<CaptureCandidate[]> {
  const stagedByRules = extracted.filter((c) => !(c.kind === "preference" && c.source === "user")).length;
  if (stagedByRules >= MAX_STAGED_PER_SESSION) return extracted;
  try {
    const outcome = await distiller.distill(events);
    if (outcome.ok) return mergeDistilled(extracted, outcome.candidates);
    log.warn({ model: distiller.label, reason: outcome.reason }, "transcript distillation failed; the rule-based candidates stand alone");
  } catch (error) {
    log.warn({ model: distiller.label, reason: error instanceof Error ? error.message : String(error) }, "transcript distillation failed; the rule-based candidates stand alone");
  }
  return extracted;
}
