import fs from "node:fs";
import path from "node:path";

export class AlreadyRunningError extends Error {
  override readonly name = "AlreadyRunningError";
  constructor(readonly pid: number, pidFile: string) {
    super(`memd is already running for this MEMD_HOME (pid ${pid}, recorded in ${pidFile}); stop it first with 'memctl stop'`);
  }
}

export interface InstanceLock {
  release(): void;
}

/**
 * Makes this process the one daemon of its home. The pid file is created atomically (a
 * hard link of a complete temporary file), so two daemons starting together cannot both
 * win; a pid file left by a dead process is taken over.
 */
export function acquireInstanceLock(pidFile: string): InstanceLock {
  const temp = path.join(path.dirname(pidFile), `.memd.pid.${process.pid}`);
  fs.writeFileSync(temp, `${process.pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.linkSync(temp, pidFile);
        return {
          release() {
            if (readPid(pidFile) === process.pid) fs.rmSync(pidFile, { force: true });
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const holder = readPid(pidFile);
        if (holder !== null && isMemdProcess(holder)) throw new AlreadyRunningError(holder, pidFile);
        fs.rmSync(pidFile, { force: true });
      }
    }
    throw new Error(`could not take ${pidFile}: another memd keeps replacing it`);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** The pid recorded in a pid file, or null if there is none. */
export function readPid(pidFile: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(pidFile, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isMemdProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // After a reboot the recorded pid may belong to some other program; where /proc exists,
  // check that it is a node process before believing it.
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return /memd|node/.test(cmdline);
  } catch {
    return true;
  }
}
