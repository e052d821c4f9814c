// Ends the process groups of running checks when tug itself is told to stop (SIGINT, SIGTERM, SIGHUP): checks run in
// groups of their own, so a tug interrupted during `--verify tests` would otherwise leave the test suite running.
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const groups = new Set<number>();

function onSignal(signal: NodeJS.Signals): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  groups.clear();
  for (const s of SIGNALS) process.off(s, onSignal);
  // With no other listener (the CLI), end the way the signal would have; a server with its own handler shuts down itself.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

/** Kills the group led by `pid` if tug is signalled while it runs; the returned function forgets it once it has ended. */
export function guardGroup(pid: number | undefined): () => void {
  if (pid === undefined) return () => undefined;
  if (groups.size === 0) for (const s of SIGNALS) process.on(s, onSignal);
  groups.add(pid);
  return () => {
    if (!groups.delete(pid) || groups.size > 0) return;
    for (const s of SIGNALS) process.off(s, onSignal);
  };
}
