// Runs one verification command with a time limit, its own process group, and captured output.
import { loadExeca } from './execa.js';
import { killRun, newRunId, RUN_MARKER } from './process-tree.js';

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
}

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
  const [file, ...args] = spec.argv;
  const runId = newRunId();
  const execa = await loadExeca();
  const child = execa(file!, args, {
    cwd: spec.cwd,
    env: { ...spec.baseEnv, TUG_SANDBOX: '1', PYTHONDONTWRITEBYTECODE: '1', ...spec.env, [RUN_MARKER]: runId },
    extendEnv: false,
    all: true,
    reject: false,
    stdin: 'ignore',
    detached: true,
    cleanup: true,
  });
  // At the timeout every process of the check goes, setsid children included. A check that ends by itself is not walked
  // for leftovers: that /proc walk would cost every verification ~20 ms, and checks are commands the user chose.
  const cancel = () => void killRun(runId);
  spec.signal?.addEventListener('abort', cancel, { once: true });
  if (spec.signal?.aborted) cancel();
  const { result, timedOut } = await withTimeLimit(child, spec.timeoutMs, () => killRun(runId)).finally(() =>
    spec.signal?.removeEventListener('abort', cancel),
  );
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

function tail(text: string): string {
  return text.length <= OUTPUT_LIMIT ? text : `[… ${text.length - OUTPUT_LIMIT} characters cut …]\n${text.slice(-OUTPUT_LIMIT)}`;
}
