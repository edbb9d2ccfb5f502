/**
 * A worker loop's pause that another part of the daemon can cut short: `sleep` waits up to `ms`
 * (until woken, when `ms` is Infinity), `wake` ends the pause under way. A wake while the loop is busy is kept for its next pause,
 * which then ends at once: news that came during a step is never left for the full wait.
 */
export class WakeableSleep {
  private wakeUp: (() => void) | null = null;
  private woken = false;

  sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = Number.isFinite(ms)
        ? setTimeout(() => {
            this.wakeUp = null;
            resolve();
          }, ms)
        : undefined;
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
    });
  }

  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }
}
