// Runs one verification command with a time limit, its own process group, and captured output.
import { execa } from 'execa';

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
  env?: Record<string, string>;
  /** Aborting it kills the command's whole process group at once. */
  signal?: AbortSignal;
}

/** Output kept per check: the tail, where failures usually are. */
export const OUTPUT_LIMIT = 32_000;

/** Waits for a child started with `detached: true`; past `ms` its whole process group is killed, not just the child. */
export async function withTimeLimit<R>(child: Promise<R> & { pid?: number | undefined; kill(signal: NodeJS.Signals): boolean }, ms: number): Promise<{ result: R; timedOut: boolean }> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
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
  const child = execa(file!, args, {
    cwd: spec.cwd,
    env: { TUG_SANDBOX: '1', PYTHONDONTWRITEBYTECODE: '1', GIT_DIR: undefined, GIT_INDEX_FILE: undefined, GIT_WORK_TREE: undefined, ...spec.env },
    all: true,
    reject: false,
    stdin: 'ignore',
    detached: true,
    cleanup: true,
  });
  const cancel = () => {
    if (child.pid !== undefined) killGroup(child.pid, child);
  };
  spec.signal?.addEventListener('abort', cancel, { once: true });
  if (spec.signal?.aborted) cancel();
  const { result, timedOut } = await withTimeLimit(child, spec.timeoutMs).finally(() => spec.signal?.removeEventListener('abort', cancel));
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

function killGroup(pid: number, child: { kill(signal: NodeJS.Signals): boolean }): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

function tail(text: string): string {
  return text.length <= OUTPUT_LIMIT ? text : `[… ${text.length - OUTPUT_LIMIT} characters cut …]\n${text.slice(-OUTPUT_LIMIT)}`;
}
