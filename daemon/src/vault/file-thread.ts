/**
 * The vault's file thread: writes and removes memory files for the writer (vault-writer.ts),
 * one request at a time in the order they came, so that a removal sent after a batch's record
 * never runs before that batch's writes.
 */
import fs from "node:fs";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { isKindFolderName } from "./file-name.js";
import type { FileThreadReply, FileThreadRequest, FileThreadSettings } from "./file-thread-protocol.js";
import { removeUnchangedFiles, writeMemoryFiles } from "./file-writing.js";
import { VaultFiles } from "./vault-files.js";

/** The nice value of the file thread, against the daemon's own (0 unless the user set one). */
const BACKGROUND_NICE = 10;

/**
 * Writing a backlog of files (an import's, every file of a vault turned on) would otherwise
 * take a core from the requests answered meanwhile. On Linux, where a thread has a scheduling
 * priority of its own, this one runs at a lower one, so that it uses what the daemon's event
 * loop leaves; elsewhere (no /proc/thread-self: macOS) it keeps the daemon's priority.
 */
function lowerPriority(): void {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.max(os.getPriority(tid), BACKGROUND_NICE));
  } catch {
    // No thread of its own to lower: writing goes on at the daemon's priority.
  }
}

/** memd's temporary files in the vault's memory folders last written before `before`: writes a crash cut off. */
function removeStaleTemporaryFiles(files: VaultFiles, before: number): string[] {
  const removed: string[] = [];
  for (const entry of files.entries(isKindFolderName, () => false)) {
    if (entry.kind === "temporary" && files.removeTemporary(entry.path, before)) removed.push(entry.path);
  }
  return removed;
}

const { dir, maxFileBytes } = workerData as FileThreadSettings;
lowerPriority();
const port = parentPort;
if (!port) throw new Error("file-thread.js runs as a worker thread of memd's vault writer");

const files = new VaultFiles(dir, maxFileBytes);
let queue = Promise.resolve();
port.on("message", (request: FileThreadRequest) => {
  queue = queue.then(async () => {
    if (request.type === "remove") return removeUnchangedFiles(files, request.files);
    const reply: FileThreadReply =
      request.type === "clean"
        ? { type: "cleaned", id: request.id, removed: removeStaleTemporaryFiles(files, request.before) }
        : { type: "written", id: request.id, outcomes: await writeMemoryFiles(files, request.tasks) };
    port.postMessage(reply);
  });
});
