import fs from "node:fs";
import net from "node:net";

/** Where the connections go: the daemon's Unix socket or its loopback TCP port. */
export type FloodTarget = { socketPath: string } | { port: number };

/**
 * What each connection does once open, none of it with a token: nothing at all; the first
 * bytes of the HTTP/2 preface and no more; or an HTTP/1.1 request whose headers come a line
 * at a time and never end (slowloris).
 */
export type FloodKind = "idle" | "h2-preface" | "slowloris";

export interface Flood {
  /** Connections the flood holds open now. */
  open(): number;
  /** Connections the daemon closed so far (reopened ones count each time). */
  closed(): number;
  /** Resolves once every connection the flood holds has been closed by the daemon. */
  allClosed(): Promise<void>;
  /** Closes what is left and stops reopening and dripping. */
  stop(): void;
}

/** How many connects are in flight at once while the flood opens. */
const OPENING_AT_ONCE = 200;
/** How often a slowloris connection sends one more header line. */
const DRIP_MS = 1000;

/**
 * Opens `count` connections of one kind, as someone on this machine without the token could.
 * With `reopen`, each one the daemon closes is opened again at once, so that the flood keeps
 * `count` attempts going rather than fading as the daemon closes them.
 */
export async function openFlood(target: FloodTarget, kind: FloodKind, count: number, options: { reopen?: boolean } = {}): Promise<Flood> {
  const live = new Set<net.Socket>();
  let closedCount = 0;
  let stopped = false;
  let wake: (() => void) | null = null;

  const start = (): Promise<void> =>
    new Promise((resolve) => {
      const socket = "socketPath" in target ? net.connect(target.socketPath) : net.connect(target.port, "127.0.0.1");
      socket.on("error", () => {});
      socket.once("connect", () => {
        live.add(socket);
        if (kind === "h2-preface") socket.write("PRI * HTTP/2.0\r\n");
        if (kind === "slowloris") socket.write("POST /memd.v1.AdminService/Health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        resolve();
      });
      socket.once("close", () => {
        if (live.delete(socket)) closedCount += 1;
        else resolve();
        if (live.size === 0) wake?.();
        if (options.reopen && !stopped) void start();
      });
    });

  for (let begun = 0; begun < count; begun += OPENING_AT_ONCE) {
    await Promise.all(Array.from({ length: Math.min(OPENING_AT_ONCE, count - begun) }, start));
  }
  const drip =
    kind === "slowloris"
      ? setInterval(() => {
          for (const socket of live) socket.write(`X-Slow-${live.size}: 1\r\n`);
        }, DRIP_MS)
      : null;

  return {
    open: () => live.size,
    closed: () => closedCount,
    allClosed: () =>
      new Promise((resolve) => {
        if (live.size === 0) return resolve();
        wake = resolve;
      }),
    stop() {
      stopped = true;
      if (drip) clearInterval(drip);
      const left = [...live];
      live.clear();
      for (const socket of left) socket.destroy();
    },
  };
}

/** Descriptors a process holds now (Linux: /proc/<pid>/fd). */
export function descriptorsOf(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

/** This process's own limit on open descriptors, which a flood of its own connections needs room in. */
export function ownDescriptorLimit(): number {
  const line = fs.readFileSync("/proc/self/limits", "utf8").split("\n").find((l) => l.startsWith("Max open files"));
  return Number(line?.split(/\s+/)[3] ?? 0);
}
