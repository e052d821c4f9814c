// One deadline for starting the Python worker (asking a version manager's shim for its interpreter included), so a hung
// interpreter is reported once, at that deadline, naming the variable that raises it (a busy machine may need more).
import { TugError } from '../core/errors.js';

export const START_TIMEOUT_VARIABLE = 'TUG_PYTHON_START_TIMEOUT_MS';
const DEFAULT_START_MS = 20_000;

/** The worker start deadline in ms: $TUG_PYTHON_START_TIMEOUT_MS when it is a positive number, else 20 s. */
export function workerStartMs(): number {
  const raw = Number(process.env[START_TIMEOUT_VARIABLE]);
  return Number.isFinite(raw) && raw > 0 ? raw : DEFAULT_START_MS;
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
