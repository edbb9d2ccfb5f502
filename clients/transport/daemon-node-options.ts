/**
 * Node's options for the daemon, given wherever it is started: memctl's detached start, the
 * systemd unit, the launchd agent and the benchmarks. V8's young generation is capped at 4 MB a
 * semi-space: with its default (16 MB, two semi-spaces kept once grown) a daemon holding 10k
 * memories kept 30 MB of its RSS for garbage that its requests make a few kilobytes at a time.
 * 1 MB saved 6 MB more but nearly tripled the garbage collector's share of the hook route (2.9 ms
 * a prompt against 1.0-1.1 with 4 MB and with the default, in CPU profiles of the route). V8
 * reads the size only when the process starts, so the daemon cannot set it for itself.
 */
export const DAEMON_NODE_OPTIONS: readonly string[] = ["--max-semi-space-size=4"];
