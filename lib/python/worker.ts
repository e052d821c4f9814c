// The client side of the Python worker: one long-lived process speaking JSON lines, with ids, timeouts and crash reports.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile, rm, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TugError } from '../core/errors.js';
import { noteToolVersion } from '../core/tool-versions.js';
import { jsonLines } from './json-lines.js';
import { ISOLATED_CWD, ISOLATED_FLAGS, isolatedEnv } from './isolated.js';
import { explainStartFailure, isSupportedVersion, unsupportedInterpreter } from './supported.js';

export interface WorkerReady {
  type: 'ready';
  protocol: number;
  python: string;
  libcst: string | null;
  pid: number;
  /** sys.executable: the interpreter itself, also when a version manager's shim started it. */
  executable?: string;
}

export interface WorkerOptions {
  python: string;
  script: string;
  /** Where to record the pid, so `tug session status` and `tug clean --workers` can find it. */
  pidFile?: string;
  startTimeoutMs?: number;
}

interface Pending {
  /** `line` is the answer's JSON text, for a caller that keeps parts of it (requestWithText). */
  resolve(value: unknown, line: string): void;
  reject(error: TugError): void;
  timer: NodeJS.Timeout;
}

/** The worker's entry point, at the same depth from dist/lib/python/ as from the bundles in dist/lib/cli-bundle/. */
export const WORKER_SCRIPT = fileURLToPath(new URL('../../../python-worker/tug_worker.py', import.meta.url));

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * Isolated (isolated.ts: no working directory on the path, PYTHON* ignored), unbuffered, and without `site`: the
 * worker needs only the standard library, and site would run the .pth files of the interpreter's site-packages (a
 * repository's own .venv among them) and cost ~20 ms of every cold start.
 */
export const WORKER_FLAGS: readonly string[] = [...ISOLATED_FLAGS, '-u', '-S'];

/** A started worker process and its exit code (null when it could not start or a signal ended it). */
export interface WorkerProcess {
  child: ChildProcess;
  exit: Promise<number | null>;
}

/**
 * Starts `python` (an interpreter, not a shim: launcher.ts resolveShim) on the worker script. Node's own spawn, not execa: bin/tug's first step starts workers too
 * (early-worker.ts) and stays small. A worker ends with this process: killed on exit, and it ends by itself when its
 * stdin closes (a parent killed by a signal).
 */
export function spawnWorker(python: string, script: string): WorkerProcess {
  // Started from tug's own folder with the allowlisted environment: the repository is only ever data sent to it.
  const child = spawn(python, [...WORKER_FLAGS, script], { stdio: 'pipe', cwd: ISOLATED_CWD, env: isolatedEnv() });
  // A write to a worker that died fails its request through the exit, not as an unhandled stream error.
  child.stdin!.on('error', () => undefined);
  const end = () => child.kill('SIGKILL');
  process.once('exit', end);
  const exit = new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('exit', (code) => resolve(code));
  });
  void exit.then(() => process.off('exit', end));
  return { child, exit };
}

export class PythonWorker {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = '';
  private exited: TugError | null = null;
  private exit: Promise<number | null> = Promise.resolve(null);

  private constructor(
    private readonly child: ChildProcess,
    readonly ready: WorkerReady,
    private readonly pidFile: string | undefined,
  ) {}

  static start(options: WorkerOptions): Promise<PythonWorker> {
    return PythonWorker.attach(spawnWorker(options.python, options.script), options);
  }

  /** Takes over a started worker; an interpreter that is too old or no Python is UnsupportedInterpreter, not a crash. */
  static async attach(started: WorkerProcess, options: WorkerOptions): Promise<PythonWorker> {
    let worker: PythonWorker;
    try {
      worker = await PythonWorker.attachReady(started, options);
    } catch (error) {
      if (error instanceof TugError && error.code === 'WorkerCrashed') throw await explainStartFailure(options.python, error);
      throw error;
    }
    if (!isSupportedVersion(worker.ready.python)) {
      await worker.shutdown();
      throw unsupportedInterpreter(options.python, worker.ready.python);
    }
    // For the records of the operations this worker plans (refs/notes/tug).
    noteToolVersion('python', worker.ready.python);
    noteToolVersion('libcst', worker.ready.libcst);
    return worker;
  }

  /** Takes over a worker process started before (its ready line waits in the pipe until read). */
  private static async attachReady(started: WorkerProcess, options: WorkerOptions): Promise<PythonWorker> {
    const { child, exit } = started;
    const lines = jsonLines(child.stdout!);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
    const ready = await new Promise<WorkerReady>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new TugError('WorkerTimeout', 'the Python worker did not start', { details: { timeout_seconds: (options.startTimeoutMs ?? 20_000) / 1000 } }));
      }, options.startTimeoutMs ?? 20_000);
      lines.once('line', (line) => {
        clearTimeout(timer);
        try {
          const message = JSON.parse(line) as WorkerReady;
          if (message.type !== 'ready') throw new Error(`unexpected first line ${line.slice(0, 200)}`);
          resolve(message);
        } catch (error) {
          child.kill('SIGKILL');
          reject(new TugError('WorkerCrashed', `the Python worker sent no ready line: ${String(error)}`, { details: { exit_code: null, stderr } }));
        }
      });
      void exit.then((code) => {
        clearTimeout(timer);
        reject(new TugError('WorkerCrashed', 'the Python worker exited while starting', { details: { exit_code: code, stderr } }));
      });
    });
    // An idle worker must not keep its parent alive: a library caller's process exits when its own work is done
    // (spawnWorker ends the worker then). Pending requests hold the event loop open through their timers.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr] as Array<{ unref?: () => void } | null>) stream?.unref?.();
    const worker = new PythonWorker(child, ready, options.pidFile);
    worker.stderrTail = stderr;
    child.stderr!.on('data', (chunk: Buffer) => (worker.stderrTail = (worker.stderrTail + chunk.toString()).slice(-8000)));
    lines.on('line', (line) => worker.onLine(line));
    worker.exit = exit;
    void exit.then((code) => worker.onExit(code));
    if (options.pidFile) {
      await mkdir(path.dirname(options.pidFile), { recursive: true });
      await writeFile(options.pidFile, `${ready.pid}\n`);
    }
    return worker;
  }

  get alive(): boolean {
    return this.exited === null;
  }

  /** Sends one request; resolves with `result`, rejects with the worker's error as a TugError. */
  request<T>(op: string, params: Record<string, unknown> = {}, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<T> {
    return this.send<T>(op, params, timeoutMs, (result) => result);
  }

  /** As `request`, with the answer's JSON line too (facts_batch says where each file's facts text lies in it). */
  requestWithText<T>(op: string, params: Record<string, unknown> = {}, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<{ result: T; text: string }> {
    return this.send(op, params, timeoutMs, (result: T, text) => ({ result, text }));
  }

  private send<T, R = T>(op: string, params: Record<string, unknown>, timeoutMs: number, answer: (result: T, line: string) => R): Promise<R> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        // A worker that missed a deadline may be stuck in a loop: replace it rather than wait.
        this.child.kill('SIGKILL');
        reject(new TugError('WorkerTimeout', `the Python worker did not answer ${op} within ${timeoutMs / 1000}s`, { details: { timeout_seconds: timeoutMs / 1000, op } }));
      }, timeoutMs);
      this.pending.set(id, { resolve: (value, line) => resolve(answer(value as T, line)), reject, timer });
      this.child.stdin!.write(`${JSON.stringify({ id, op, ...params })}\n`);
    });
  }

  async shutdown(): Promise<void> {
    // Waiting for the exit needs the event loop, which an unref'd child alone would not keep running.
    this.child.ref();
    if (this.alive) {
      // The worker holds nothing to save, so a signal ends it without the round trip and the interpreter's
      // teardown a `shutdown` request waits for (~10 ms of every one-shot command).
      this.child.kill('SIGTERM');
      await this.exit;
    }
    if (this.pidFile) await rm(this.pidFile, { force: true });
  }

  private onLine(line: string): void {
    let message: { id?: number | null; ok?: boolean; result?: unknown; error?: { code?: string; message?: string; details?: Record<string, unknown> } };
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    const pending = message.id == null ? undefined : this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id!);
    clearTimeout(pending.timer);
    if (message.ok) pending.resolve(message.result, line);
    else pending.reject(workerError(message.error ?? {}));
  }

  private onExit(exitCode: number | null): void {
    this.exited = new TugError('WorkerCrashed', `the Python worker exited (code ${exitCode})`, { details: { exit_code: exitCode, stderr: this.stderrTail } });
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(this.exited);
      this.pending.delete(id);
    }
  }
}

/** The worker's own codes become tug codes; unknown ones are internal errors carrying the worker's details. */
function workerError(error: { code?: string; message?: string; details?: Record<string, unknown> }): TugError {
  const message = error.message ?? 'the Python worker reported an error';
  if (error.code === 'SyntaxError') return new TugError('SourceSyntaxError', message, { details: { ...error.details } });
  if (error.code === 'LibCSTNotAvailable') return new TugError('LibCSTNotAvailable', message, { details: { ...error.details } });
  if (error.code === 'NestingTooDeep') return new TugError('LimitExceeded', message, { details: { ...error.details } });
  return new TugError('InternalError', message, { details: { worker_code: error.code, ...error.details } });
}
