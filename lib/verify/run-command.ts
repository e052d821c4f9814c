// Runs an agent's shell command in a sandbox: `sh -c` under the machine's confinement, every process it started killed at the end, stdout and stderr kept apart.
import { loadExeca } from './execa.js';
import { confine, type Confinement, type Isolation } from './isolation.js';
import { confinementFor } from './check-confinement.js';
import { callerEnvironment } from './sandbox-env.js';
import { killRun, newRunId, RUN_MARKER } from './process-tree.js';
import { withTimeLimit } from './run-check.js';

export interface CommandSpec {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  confinement: Confinement;
  /** Directories the command must not write (the user's repository) where the confinement can enforce it. */
  readOnly: readonly string[];
}

export interface CommandResult {
  exit_code: number;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  truncated: boolean;
  signal: string | null;
  isolation: Isolation;
}

/** Each stream keeps its tail past this many characters. */
export const STREAM_LIMIT = 100_000;

/** Exit status reported for a command killed by its time limit, as timeout(1) does. */
export const TIMEOUT_EXIT = 124;

export async function runShellCommand(spec: CommandSpec): Promise<CommandResult> {
  const runId = newRunId();
  // tug's config and trust store are hidden as for verification: a command must not plant settings or trust.
  const { mounts } = await confinementFor(null, callerEnvironment(), spec.readOnly);
  const { argv, isolation } = confine(spec.confinement, spec.command, { ...mounts, network: false });
  const execa = await loadExeca();
  const child = execa(argv[0]!, argv.slice(1), {
    cwd: spec.cwd,
    env: { ...spec.env, [RUN_MARKER]: runId },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    stripFinalNewline: false,
    detached: true,
    cleanup: true,
  });
  // A detached child still holding stdout would keep the streams open after the command ended: end it at the exit.
  child.once('exit', () => void killRun(runId));
  const { result, timedOut } = await withTimeLimit(child, spec.timeoutMs, () => killRun(runId));
  // Nothing it started outlives the command: background children, setsid daemons and all.
  await killRun(runId);
  const stdout = tail(String(result.stdout ?? ''));
  const stderr = tail(String(result.stderr ?? ''));
  const signal = result.signal ?? null;
  const signalNumber = signal ? ({ SIGKILL: 9, SIGTERM: 15, SIGINT: 2, SIGSEGV: 11, SIGABRT: 6 } as Record<string, number>)[signal] ?? 1 : 0;
  const exit = timedOut ? TIMEOUT_EXIT : (result.exitCode ?? (signal ? 128 + signalNumber : 127));
  return { exit_code: exit, stdout: stdout.text, stderr: stderr.text, timed_out: timedOut, truncated: stdout.cut || stderr.cut, signal: timedOut ? 'SIGKILL' : signal, isolation };
}

function tail(text: string): { text: string; cut: boolean } {
  return text.length <= STREAM_LIMIT ? { text, cut: false } : { text: `[… ${text.length - STREAM_LIMIT} characters cut …]\n${text.slice(-STREAM_LIMIT)}`, cut: true };
}
