// TUG_TIMING=1: phase timestamps on stderr, for finding where an operation's time goes without a profiler.
const enabled = Boolean(process.env['TUG_TIMING']);

/** Writes `tug timing <ms since the process started> <label>` to stderr when TUG_TIMING is set; otherwise nothing. */
export function mark(label: string): void {
  if (enabled) process.stderr.write(`tug timing ${performance.now().toFixed(1)} ${label}\n`);
}
