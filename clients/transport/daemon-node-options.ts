/**
 * Node's options for the daemon, given wherever it is started: memctl's detached start, the
 * systemd unit, the launchd agent and the benchmarks. V8 reads them only when the process starts,
 * so the daemon cannot set them for itself.
 *
 * The young generation is capped at 4 MB a semi-space: with its default (16 MB, two semi-spaces
 * kept once grown) a daemon holding 10k memories kept 30 MB of its RSS for garbage that its
 * requests make a few kilobytes at a time. 1 MB saved 6 MB more but nearly tripled the garbage
 * collector's share of the hook route (2.9 ms a prompt against 1.0-1.1 with 4 MB and with the
 * default, in CPU profiles of the route).
 *
 * The old generation grows by 30% of what survives a full collection: left to choose, V8 grew it
 * up to 2.5 times the live heap while the daemon imported 10k memories and checked them for
 * contradictions, and kept it: 100-150 MB committed for 57-63 MB live, and 226-276 MiB RSS in five
 * runs; with 30%, 81 MB and 208-211 MiB in three.
 */
export const DAEMON_NODE_OPTIONS: readonly string[] = ["--max-semi-space-size=4", "--heap-growing-percent=30"];
