import type { HttpHookEndpoint } from "./claude-settings.js";
import type { FileChange } from "./file-change.js";

/** The files in MEMD_HOME behind Claude Code's http hooks: the daemon's listen address and its hook token. */
export interface HookEndpointFiles {
  /** One HOST:PORT line, which the daemon serves when nothing else names an address. */
  listenFile: string;
  /** The token for the hook routes, which the daemon also creates when it listens. */
  tokenFile: string;
}

/** The daemon reads a token of at least this length as given (see daemon/src/server/token.ts). */
const MIN_TOKEN_CHARS = 32;

/**
 * Where the http hooks will reach the daemon: the port already recorded (so that a second run
 * changes nothing and the URLs in settings.json stay valid) or `freePort`, and the hook token
 * already there or `newToken`. Pure; the caller does the I/O.
 */
export function hookEndpoint(listenText: string | null, tokenText: string | null, freePort: number, newToken: string): HttpHookEndpoint {
  const recorded = /^127\.0\.0\.1:(\d{1,5})$/.exec(listenText?.trim() ?? "");
  const port = recorded ? Number(recorded[1]) : freePort;
  const token = tokenText !== null && tokenText.trim().length >= MIN_TOKEN_CHARS ? tokenText.trim() : newToken;
  return { port: port > 0 && port < 65_536 ? port : freePort, token };
}

/** The two files as the endpoint needs them; each is written only when it says something else. */
export function planHookEndpoint(files: HookEndpointFiles, contents: ReadonlyMap<string, string | null>, endpoint: HttpHookEndpoint): FileChange[] {
  const listen = `127.0.0.1:${endpoint.port}\n`;
  const token = `${endpoint.token}\n`;
  const listenBefore = contents.get(files.listenFile) ?? null;
  const tokenBefore = contents.get(files.tokenFile) ?? null;
  return [
    {
      target: "claude",
      path: files.listenFile,
      before: listenBefore,
      after: listenBefore?.trim() === listen.trim() ? listenBefore : listen,
      summary: listenBefore?.trim() === listen.trim() ? [] : [`listen on 127.0.0.1:${endpoint.port} for Claude Code's http hooks`],
      backup: false,
      mode: 0o600,
    },
    {
      target: "claude",
      path: files.tokenFile,
      before: tokenBefore,
      after: tokenBefore?.trim() === endpoint.token ? tokenBefore : token,
      summary: tokenBefore?.trim() === endpoint.token ? [] : ["create the hook token, which calls the hook routes and nothing else"],
      backup: false,
      mode: 0o600,
    },
  ];
}

/** Uninstall: the recorded address goes, so that the daemon stops listening for hooks once restarted; the token stays the daemon's. */
export function planHookEndpointRemoval(files: HookEndpointFiles, contents: ReadonlyMap<string, string | null>): FileChange {
  const before = contents.get(files.listenFile) ?? null;
  return { target: "claude", path: files.listenFile, before, after: null, summary: before === null ? [] : ["stop listening for Claude Code's http hooks"], backup: false, mode: 0o600 };
}
