// TUG_TIMINGS=1, the one switch for timings: durations in the JSON (present.ts) and phase timestamps on stderr, for
// finding where an operation's time goes without a profiler. Off, output is byte-identical run to run.

export function timingsWanted(): boolean {
  return process.env['TUG_TIMINGS'] === '1';
}

/**
 * Writes `tug timing <ms since the process started> cpu <ms of CPU so far> <label>` to stderr when timings are wanted;
 * otherwise nothing. CPU time beside wall time, because on a loaded machine the wall clock mostly measures the others.
 */
export function mark(label: string): void {
  if (!timingsWanted()) return;
  const cpu = process.cpuUsage();
  process.stderr.write(`tug timing ${performance.now().toFixed(1)} cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ${label}\n`);
}
