/**
 * The order in which memd stops, whatever order its parts started in: listeners stop taking
 * connections, calls in flight finish, those still running are aborted, the background workers
 * stop, the database closes, the log is flushed, and the instance lock goes last.
 */
const SHUTDOWN_PHASES = ["stop accepting", "drain", "abort", "stop workers", "close the store", "flush the log", "release the lock"] as const;

export type ShutdownPhase = (typeof SHUTDOWN_PHASES)[number];

type Step = () => void | Promise<void>;

/**
 * What each phase of shutdown does, registered as the daemon starts each part. Steps of a phase
 * run one after another, the last added first (a part started later may use one started before
 * it, so it stops first); a step that fails is reported and the rest still run, so that the
 * database closes and the lock is released whatever failed before.
 */
export class ShutdownPhases {
  private readonly steps = new Map<ShutdownPhase, Step[]>(SHUTDOWN_PHASES.map((phase) => [phase, []]));
  private running: Promise<void> | null = null;

  constructor(
    private readonly report: {
      /** Told as each phase begins. */
      phase?: (phase: ShutdownPhase) => void;
      failed: (phase: ShutdownPhase, error: unknown) => void;
    },
  ) {}

  /** Adds a step to a phase. */
  on(phase: ShutdownPhase, step: Step): void {
    (this.steps.get(phase) as Step[]).push(step);
  }

  /** Runs every phase in order, each step once; a second call waits for the first. */
  run(): Promise<void> {
    this.running ??= (async () => {
      for (const phase of SHUTDOWN_PHASES) {
        this.report.phase?.(phase);
        for (const step of (this.steps.get(phase) as Step[]).splice(0).reverse()) {
          try {
            await step();
          } catch (error) {
            this.report.failed(phase, error);
          }
        }
      }
    })();
    return this.running;
  }
}
