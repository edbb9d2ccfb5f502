import os from "node:os";
import path from "node:path";

/** Where a client finds the daemon: MEMD_HOME (default ~/.memd) and the files in it. */
export interface MemdEndpoint {
  home: string;
  socketPath: string;
  pidFile: string;
  tokenFile: string;
  logDir: string;
}

export function memdEndpoint(home?: string, env: NodeJS.ProcessEnv = process.env): MemdEndpoint {
  // An empty MEMD_HOME counts as unset: resolving "" would make the working directory the state directory.
  const dir = path.resolve(home || env.MEMD_HOME || path.join(env.HOME || os.homedir(), ".memd"));
  return {
    home: dir,
    socketPath: path.join(dir, "memd.sock"),
    pidFile: path.join(dir, "memd.pid"),
    tokenFile: path.join(dir, "token"),
    logDir: path.join(dir, "logs"),
  };
}
