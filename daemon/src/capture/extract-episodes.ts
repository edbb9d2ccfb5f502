import path from "node:path";
import { type CaptureCandidate, candidate } from "./candidate.js";
import { proseWordCount, splitSentences } from "./sentences.js";
import type { TranscriptEvent, TranscriptToolUse } from "./transcript-event.js";

/** Output lines that say what went wrong. */
const SALIENT = /\b(?:fail(?:ed|s|ure)?|errors?|exception|assert\w*|panic(?:ked)?|fatal|expected|cannot|can't|not found|denied|refused|undefined|traceback)\b|[×✗✕]/i;
const MAX_SALIENT_LINES = 4;
const MAX_DIAGNOSIS_CHARS = 700;

interface PendingFailure {
  use: TranscriptToolUse;
  outputHead: string;
  line: number;
  edited: string[];
  /** What the assistant said between the failure and the first edit: usually the diagnosis. */
  diagnosis: string[];
}

/**
 * Bug-fix episodes: a shell command that failed, then edits to files, then the same command
 * passing. The problem is the failure (the command and the lines of its output that say what
 * went wrong), the solution is what the assistant said it found plus the files it changed.
 */
export function extractEpisodes(events: readonly TranscriptEvent[], cwd: string): CaptureCandidate[] {
  const uses = new Map<string, TranscriptToolUse>();
  const pending = new Map<string, PendingFailure>();
  const out: CaptureCandidate[] = [];
  for (const event of events) {
    if (event.kind === "tool-use") {
      uses.set(event.id, event);
      if (event.filePath !== "" && /edit|write|patch/i.test(event.name)) {
        for (const failure of pending.values()) pushOnce(failure.edited, relativeTo(cwd, event.filePath));
      }
      continue;
    }
    if (event.kind === "text") {
      if (event.role !== "assistant") continue;
      for (const failure of pending.values()) {
        if (failure.edited.length === 0) failure.diagnosis.push(event.text);
      }
      continue;
    }
    const use = uses.get(event.toolUseId);
    if (!use || use.command.trim() === "") continue;
    const key = use.command.trim();
    const failure = pending.get(key);
    if (event.isError) {
      // A second failure before any edit is the same problem; keep the first account of it.
      if (!failure || failure.edited.length > 0) pending.set(key, { use, outputHead: event.outputHead, line: event.line, edited: [], diagnosis: [] });
      continue;
    }
    if (failure && failure.edited.length > 0) out.push(episodeOf(failure));
    pending.delete(key);
  }
  return out;
}

function episodeOf(failure: PendingFailure): CaptureCandidate {
  const command = failure.use.command.trim();
  const exit = /exit code (\d+)/i.exec(failure.outputHead)?.[1];
  const salient = salientLines(failure.outputHead);
  const problem = `\`${command}\` failed${exit ? ` (exit code ${exit})` : ""}${salient.length > 0 ? `: ${salient.join("; ")}` : ""}`;
  const diagnosis = diagnosisOf(failure.diagnosis);
  const files = failure.edited;
  const changed = `Changed ${files.join(", ")}.`;
  const program = /^[\w./-]+/.exec(command)?.[0];
  return candidate({
    kind: "episode",
    content: `Fixed a failing \`${command}\`: ${diagnosis === "" ? `it passed after changes to ${files.join(", ")}.` : diagnosis}`,
    problem,
    solution: diagnosis === "" ? changed : `${diagnosis} ${changed}`,
    files,
    concepts: program ? [path.basename(program)] : [],
    source: "tools",
    line: failure.line,
    reason: "a failing command that passed again after edits",
  });
}

function salientLines(output: string): string[] {
  const lines: string[] = [];
  for (const raw of output.split(/\r?\n/)) {
    const line = raw.replace(/\s+\d+(?:\.\d+)?\s?m?s$/, "").replace(/\s+/g, " ").trim();
    if (line === "" || /^exit code \d+$/i.test(line) || !SALIENT.test(line) || lines.includes(line)) continue;
    lines.push(line.length > 160 ? `${line.slice(0, 159)}…` : line);
    if (lines.length === MAX_SALIENT_LINES) break;
  }
  return lines;
}

/** The assistant's explanation, without one-word interjections ("Found it."), cut at a sentence. */
function diagnosisOf(texts: readonly string[]): string {
  let out = "";
  for (const sentence of texts.flatMap((text) => splitSentences(text))) {
    if (proseWordCount(sentence) < 3) continue;
    if (out.length + sentence.length + 1 > MAX_DIAGNOSIS_CHARS) break;
    out = out === "" ? sentence : `${out} ${sentence}`;
  }
  return out;
}

function relativeTo(cwd: string, file: string): string {
  if (cwd === "" || !path.isAbsolute(file)) return file;
  const relative = path.relative(cwd, file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

function pushOnce(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}
