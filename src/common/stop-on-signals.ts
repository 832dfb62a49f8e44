/**
 * Stops the process once: on the first SIGINT or SIGTERM (and, for a child of the local launcher,
 * when the launcher goes away) it runs `steps` in order, then exits 0. Under the local launcher, later
 * signals wait for that stop rather than starting another, since Ctrl-C reaches the whole process
 * group and the launcher's SIGTERM may follow the terminal's SIGINT. A process on its own exits at
 * once on a second signal, so an operator can still end a stop that hangs.
 */
export function stopOnSignals(steps: Array<() => Promise<void>>, { withLauncher = false } = {}): void {
  let stopping: Promise<void> | undefined;
  const stop = () => {
    if (stopping && !withLauncher) process.exit(1);
    return (stopping ??= (async () => {
      for (const step of steps) await step();
      process.exit(0);
    })());
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // A launcher killed outright never sends a signal; nothing would ever stop this process otherwise.
  if (withLauncher) process.on('disconnect', () => void stop());
}
