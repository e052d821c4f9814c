// One deadline for starting the Python worker (asking a version manager's shim for its interpreter included), so a hung
// interpreter is reported once, at that deadline, naming the variable that raises it. The default stretches with the
// machine's load: a start that takes 50 ms idle can take seconds when every core has ten runnable processes.
import os from 'node:os';
import { TugError } from '../core/errors.js';

export const START_TIMEOUT_VARIABLE = 'TUG_PYTHON_START_TIMEOUT_MS';
const DEFAULT_START_MS = 20_000;

/** Most the default stretches with load: a start that still hangs is reported within 20 s × this. */
const MOST_STRETCH = 10;

/** How much busier than idle the machine is: runnable processes per core over the last minute, at least 1. */
export function loadStretch(loadAverage = os.loadavg()[0]!, cores = os.availableParallelism()): number {
  return Math.min(MOST_STRETCH, Math.max(1, loadAverage / Math.max(1, cores)));
}

/**
 * The worker start deadline in ms: $TUG_PYTHON_START_TIMEOUT_MS when it is a positive number, else 20 s stretched by
 * the machine's load (20 s idle, up to 200 s on a machine ten times over its cores).
 */
export function workerStartMs(): number {
  const raw = Number(process.env[START_TIMEOUT_VARIABLE]);
  return Number.isFinite(raw) && raw > 0 ? raw : Math.round(DEFAULT_START_MS * loadStretch());
}

export function startTimeoutError(ms: number, what = 'the Python worker did not start'): TugError {
  return new TugError('WorkerTimeout', `${what} within ${ms / 1000}s (the worker start deadline; raise it with ${START_TIMEOUT_VARIABLE})`, {
    details: { timeout_seconds: ms / 1000, deadline: 'python_worker_start', variable: START_TIMEOUT_VARIABLE },
  });
}

/** `work`, or WorkerTimeout once `ms` have passed; the work itself is left to its own timeout (a probe's is bounded). */
export function withinStartDeadline<T>(work: Promise<T>, ms: number, what?: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(startTimeoutError(ms, what)), Math.max(ms, 1));
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
