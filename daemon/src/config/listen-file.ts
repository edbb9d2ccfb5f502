import fs from "node:fs";
import { ConfigError, type ListenAddress, parseListenAddress } from "./config.js";

/**
 * The loopback address recorded in MEMD_HOME/listen (one HOST:PORT line, written by memctl setup
 * for Claude Code's http hooks), which the daemon serves when neither --listen nor MEMD_LISTEN
 * names one: the port stays the same across restarts, so the URLs in the agents' settings do.
 * Null when there is no such file.
 */
export function readListenFile(file: string): ListenAddress | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parseListenAddress(text.trim());
  } catch (error) {
    throw new ConfigError(`${file} must hold one HOST:PORT line such as 127.0.0.1:7077 (run memctl setup again to rewrite it): ${(error as Error).message}`);
  }
}
