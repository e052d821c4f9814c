// Runs one verification command with a time limit, its own process group, and captured output.
import { loadExeca } from './execa.js';
import { killRun, newRunId, RUN_MARKER } from './process-tree.js';
import { guardGroups } from './signal-guard.js';
import { wrapArgv, type CheckConfinement } from './check-confinement.js';
import { namespaceEmptied, namespaceInit } from './pid-namespace.js';
import { mark } from '../core/timing.js';

export type CheckStatus = 'passed' | 'failed' | 'skipped';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  command?: string[];
  exit_code?: number | null;
  timed_out?: boolean;
  output?: string;
  errors?: Array<{ file: string; line: number | null; col?: number | null; message: string }>;
  reason?: string;
  duration_ms: number;
}

export interface CheckSpec {
  name: string;
  argv: string[];
  cwd: string;
  timeoutMs: number;
  /** The allowlisted environment (sandboxEnv); variables here are added to it, nothing else of this process's is passed. */
  baseEnv: Record<string, string>;
  env?: Record<string, string>;
  /** Aborting it kills the command's whole process tree at once. */
  signal?: AbortSignal;
  /** Told every PROGRESS_INTERVAL_MS while the command runs (and when pytest prints a new percentage), so callers can show life. */
  onProgress?: (progress: CheckProgress) => void;
  /** Runs the command confined (a project command: tests, test_command, typecheck, cargo); tug's own checks are not. */
  confine?: CheckConfinement;
  /** Dirs the confined command must write although they sit in the read-only repository (cargo's target dir). */
  writable?: readonly string[];
  /** Given the command's whole stdout once it has ended (the result's output is the tail of both streams mixed). */
  stdout?: (text: string) => void;
}

/** A running check's heartbeat: which check, how long it has run, and pytest's own `[ NN%]` where it prints one. */
export interface CheckProgress {
  check: string;
  elapsed_s: number;
  percent?: number;
}

/** Well under the 5 s a client may wait between progress notifications. */
export const PROGRESS_INTERVAL_MS = 2_000;

/** The child's fd where bwrap reports its namespace (`--json-status-fd`). */
const STATUS_FD = 3;

/** Output kept per check: the tail, where failures usually are. */
export const OUTPUT_LIMIT = 32_000;

/** Waits for a child started with `detached: true`; past `ms` its whole process group is killed, not just the child. */
export async function withTimeLimit<R>(
  child: Promise<R> & { pid?: number | undefined; kill(signal: NodeJS.Signals): boolean },
  ms: number,
  killRest?: () => Promise<unknown>,
): Promise<{ result: R; timedOut: boolean }> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // The processes that left the group (setsid) first, while their parents still hold them, then the group itself.
    void (killRest?.() ?? Promise.resolve()).finally(() => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    });
  }, ms);
  try {
    return { result: await child, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

export async function runCheck(spec: CheckSpec): Promise<CheckResult> {
  const started = Date.now();
  const wrapped = spec.confine ? await wrapArgv(spec.confine, spec.argv, spec.writable, STATUS_FD) : undefined;
  const argv = wrapped?.argv ?? spec.argv;
  // bwrap runs the check in a PID namespace of its own: nothing the check starts can leave it, and the namespace dies
  // with its first process (pid-namespace.ts), so the /proc walk below is needed only on the other roads (unshare, none).
  const namespaced = wrapped?.isolation.confinement === 'bwrap';
  const [file, ...args] = argv;
  const runId = newRunId();
  const execa = await loadExeca();
  const guard = guardGroups();
  const child = execa(file!, args, {
    cwd: spec.cwd,
    env: { ...spec.baseEnv, TUG_SANDBOX: '1', PYTHONDONTWRITEBYTECODE: '1', ...spec.env, [RUN_MARKER]: runId },
    extendEnv: false,
    all: true,
    reject: false,
    stdio: namespaced ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    detached: true,
    cleanup: true,
  });
  // Every process of the check goes when its command ends, at the timeout or on cancel, setsid children included: a
  // detached daemon a test suite started would outlive the check, and one holding the output pipe would keep the
  // check waiting until its timeout (the exit event comes before the streams close).
  guard.track(child.pid);
  // A command that could not start has no pid and sends no exit event.
  if (child.pid === undefined) guard.release();
  child.once('exit', () => {
    guard.release();
    if (!namespaced) void killRun(runId);
  });
  const stopProgress = spec.onProgress ? reportProgress(spec, child, started) : () => undefined;
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    void killRun(runId);
  };
  spec.signal?.addEventListener('abort', cancel, { once: true });
  if (spec.signal?.aborted) cancel();
  const { result, timedOut } = await withTimeLimit(child, spec.timeoutMs, () => killRun(runId)).finally(() => {
    stopProgress();
    spec.signal?.removeEventListener('abort', cancel);
  });
  // A check that ended by itself under bwrap: wait for its namespace to be empty (moments). Killed (timeout, cancel)
  // or on another road, or the namespace not seen gone: every process of the run is looked for and killed.
  const init = namespaced && !timedOut && !cancelled ? namespaceInit(String(result.stdio?.[STATUS_FD] ?? '')) : undefined;
  if (init !== undefined && (await namespaceEmptied(init))) mark('check: its PID namespace is empty, no process walk');
  else await killRun(runId);
  spec.stdout?.(String(result.stdout ?? ''));
  const output = tail(String(result.all ?? ''));
  const failedToStart = result.failed && result.exitCode === undefined && !timedOut;
  return {
    name: spec.name,
    status: !timedOut && result.exitCode === 0 ? 'passed' : 'failed',
    command: spec.argv,
    exit_code: result.exitCode ?? null,
    ...(timedOut ? { timed_out: true, reason: `timed out after ${Math.round(spec.timeoutMs / 1000)}s` } : {}),
    ...(failedToStart ? { reason: `could not start ${file}: ${result.shortMessage ?? 'unknown error'}` } : {}),
    output,
    duration_ms: Date.now() - started,
  };
}

/** Calls onProgress on a timer and on each new pytest percentage; returns the function that stops it. */
function reportProgress(spec: CheckSpec, child: { all?: NodeJS.ReadableStream | null }, started: number): () => void {
  let percent: number | undefined;
  const send = () => spec.onProgress?.({ check: spec.name, elapsed_s: Math.round((Date.now() - started) / 1000), ...(percent === undefined ? {} : { percent }) });
  const timer = setInterval(send, PROGRESS_INTERVAL_MS);
  const onData = (chunk: Buffer | string) => {
    const found = [...String(chunk).matchAll(/\[\s*(\d{1,3})%\]/g)].at(-1);
    if (!found || Number(found[1]) === percent) return;
    percent = Number(found[1]);
    send();
  };
  child.all?.on('data', onData);
  return () => {
    clearInterval(timer);
    child.all?.off('data', onData);
  };
}

function tail(text: string): string {
  return text.length <= OUTPUT_LIMIT ? text : `[… ${text.length - OUTPUT_LIMIT} characters cut …]\n${text.slice(-OUTPUT_LIMIT)}`;
}
