import path from "node:path";
import type { CaptureCandidate } from "../capture/candidate.js";
import { extractCandidates, MAX_STAGED_PER_SESSION } from "../capture/extract-candidates.js";
import { MAX_TRANSCRIPT_BYTES, readTranscript } from "../capture/read-transcript.js";
import { type CapturedMemory, type SaveContext, saveCandidates } from "../capture/save-candidates.js";
import { InvalidInputError } from "../errors.js";
import { mergeDistilled } from "../llm/distilled-candidates.js";
import type { TranscriptDistiller } from "../llm/transcript-distiller.js";
import type { Logger } from "../logger.js";
import { GLOBAL_PROJECT } from "../memory/memory.js";
import type { ProjectResolver } from "../services/project-resolver.js";

/** Labels taken from a request (trigger, agent) are cut to this many characters. */
export const MAX_LABEL_CHARS = 200;

/** What a sweep writes with. */
export interface SweepPorts extends Pick<SaveContext, "store" | "newId" | "limits" | "contradictions"> {
  resolveProject: ProjectResolver;
  now: () => number;
  /** Adds a language model's candidates to the rule-based ones; null: rules only. */
  distiller: TranscriptDistiller | null;
}

export interface SweepRequest {
  transcriptPath: string;
  sessionId: string;
  project: string;
  cwd: string;
  sourceAgent: string;
  trigger: string;
}

export interface Swept {
  sessionId: string;
  project: string;
  captured: CapturedMemory[];
  linesRead: number;
  malformedLines: number;
  overLimit: number;
  truncated: boolean;
}

/**
 * Reads a session's transcript, extracts what was worth keeping (and the model's candidates,
 * when one is configured) and saves them (saveCandidates). Only counts are logged, never what
 * the transcript says.
 */
export async function sweepTranscript(ports: SweepPorts, req: SweepRequest, log: Logger): Promise<Swept> {
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
  const project = ports.resolveProject({ project: req.project, cwd: req.cwd || recordedCwd }) ?? GLOBAL_PROJECT;
  // Codex's hooks carry no exit code (agent-hooks/shell-failure.ts): its failed commands are
  // read from the rollout. Other agents' hooks save theirs as they happen.
  const extracted = extractCandidates(read.events, recordedCwd || req.cwd, { shellFailures: req.sourceAgent === "codex" });
  const candidates = ports.distiller ? await withDistilled(ports.distiller, read.events, extracted, log) : extracted;
  const result = saveCandidates(candidates, {
    store: ports.store,
    newId: ports.newId,
    now: ports.now(),
    limits: ports.limits,
    project,
    sessionId,
    sourceAgent: req.sourceAgent.trim().slice(0, MAX_LABEL_CHARS),
    contradictions: ports.contradictions,
  });
  const count = (outcome: CapturedMemory["outcome"]) => result.captured.filter((c) => c.outcome === outcome).length;
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
      created: count("created"),
      merged: count("merged"),
      alreadySaved: count("already-saved"),
      overLimit: result.overLimit,
      invalid: result.invalid,
      ms: Math.round(performance.now() - started),
    },
    "transcript swept",
  );
  return {
    sessionId,
    project,
    captured: result.captured,
    linesRead: read.linesRead,
    malformedLines: read.malformedLines,
    overLimit: result.overLimit,
    truncated: read.truncated,
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
