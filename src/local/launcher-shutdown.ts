/**
 * How a launcher stops what it started: everything it was handed, last started first, once,
 * whichever asks first (Ctrl-C, SIGTERM, a child given up on, a failed start), then the process exits
 * with that first request's code. A cleanup that fails does not keep the others from running. The
 * processes it starts use stopOnSignals instead: their steps are known before they serve, while a
 * launcher's list grows with each thing it starts.
 */
export class LauncherShutdown {
  private readonly cleanups: Array<() => Promise<unknown>> = [];
  private stopRequested = false;

  /** `announcement` is printed when stopping begins, where stopping takes long enough to need one. */
  constructor(private readonly announcement?: string) {
    process.on('SIGINT', () => void this.exit(0));
    process.on('SIGTERM', () => void this.exit(0));
  }

  /** True from the first request on: what starts after it must stop itself. */
  get stopping(): boolean {
    return this.stopRequested;
  }

  /** Stops this when the launcher stops. */
  add(cleanup: () => unknown): void {
    this.cleanups.push(async () => cleanup());
  }

  async exit(exitCode: number): Promise<void> {
    if (this.stopRequested) return;
    this.stopRequested = true;
    if (this.announcement) process.stdout.write(`${this.announcement}\n`);
    for (const cleanup of this.cleanups.reverse()) await cleanup().catch(() => undefined);
    process.exit(exitCode);
  }
}
