// Ends the process groups of running checks when tug itself is told to stop (SIGINT, SIGTERM, SIGHUP): checks run in
// groups of their own, so a tug interrupted during `--verify tests` would otherwise leave the test suite running.
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const groups = new Set<number>();
let guards = 0;

function onSignal(signal: NodeJS.Signals): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  groups.clear();
  guards = 0;
  for (const s of SIGNALS) process.off(s, onSignal);
  // With no other listener (the CLI), end the way the signal would have; a server with its own handler shuts down itself.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

export interface GroupGuard {
  /** Kills the group led by `pid` if tug is signalled before `release`. */
  track(pid: number | undefined): void;
  /** Forgets the group once it has ended; the handlers go with the last guard. */
  release(): void;
}

/**
 * Arms the handlers before the check is spawned, then tracks its group. Armed only after the spawn, a signal that came
 * while a loaded machine held tug between the two (the command already running) met no handler: tug died at once and
 * left the command behind.
 */
export function guardGroups(): GroupGuard {
  if (guards++ === 0) for (const s of SIGNALS) process.on(s, onSignal);
  let tracked: number | undefined;
  let released = false;
  return {
    track(pid) {
      tracked = pid;
      if (pid !== undefined && !released) groups.add(pid);
    },
    release() {
      if (released) return;
      released = true;
      if (tracked !== undefined) groups.delete(tracked);
      if (guards > 0 && --guards === 0) for (const s of SIGNALS) process.off(s, onSignal);
    },
  };
}
