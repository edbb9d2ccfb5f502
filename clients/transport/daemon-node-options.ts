/**
 * Node's options for the daemon, given wherever it is started: memctl's detached start, the
 * systemd unit, the launchd agent and the benchmarks. V8's young generation is capped at 1 MB a
 * semi-space: with its default (16 MB, two semi-spaces kept once grown) a daemon holding 10k
 * memories kept 30 MB of its RSS, and 20 MB more of old space, for garbage that its requests
 * make a few kilobytes at a time (bench memory: 277.7 MiB against 220.0). V8 reads the size only
 * when the process starts, so the daemon cannot set it for itself.
 */
export const DAEMON_NODE_OPTIONS: readonly string[] = ["--max-semi-space-size=1"];
