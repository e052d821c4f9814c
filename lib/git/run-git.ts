// The single place tug spawns git: a clean environment, no hooks, no pager, and failures turned into TugErrors.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { diskFullError, TugError } from '../core/errors.js';

export interface GitOptions {
  cwd: string;
  env?: Record<string, string>;
  input?: string | Uint8Array;
  /**
   * A file git reads as stdin instead of `input`: the process then needs nothing more from this one until it exits (a
   * pipe takes 64 KB, and the rest waits for this process's event loop, which a long synchronous task holds).
   */
  inputFile?: string;
  /** Return the result instead of throwing when git exits non-zero. */
  allowFailure?: boolean;
  timeoutMs?: number;
}

export interface GitResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The git process's id (git names some files it leaves behind after it, e.g. fast-import's crash report). */
  pid?: number;
}

/**
 * Variables that would point git at a different repository or index than the one tug chose.
 * `git tug` may run with some of them set; tug always passes cwd explicitly instead.
 */
const INHERITED_GIT_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX', 'GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE'];

function gitEnv(extra: Record<string, string> | undefined): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', ...extra };
  for (const name of INHERITED_GIT_VARIABLES) if (!(extra && name in extra)) env[name] = undefined;
  return env;
}

/** Hooks never run for tug's own git calls: a sandbox checkout is not the user's checkout. */
const BASE_ARGS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.pager=cat', '-c', 'advice.detachedHead=false'];

interface RawResult {
  exitCode: number;
  stdout: Buffer;
  stderr: Buffer;
  pid?: number;
}

/**
 * One git process, on node:child_process directly: an operation runs several git commands, and execa's
 * machinery cost ~3 ms of CPU per call on top of the spawn itself. Never rejects: a git that cannot start
 * or times out is exit code -1 with the reason in stderr.
 */
function runGit(args: readonly string[], options: GitOptions & { shell?: string; input3?: string }): Promise<RawResult> {
  return new Promise((resolve) => {
    let stdinFd: number | undefined;
    try {
      if (options.inputFile !== undefined) stdinFd = openSync(options.inputFile, 'r');
    } catch (error) {
      resolve({ exitCode: -1, stdout: Buffer.alloc(0), stderr: Buffer.from(`cannot read ${options.inputFile}: ${(error as Error).message}`) });
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn(options.shell === undefined ? 'git' : 'sh', options.shell === undefined ? [...BASE_ARGS, ...args] : ['-c', options.shell], {
        cwd: options.cwd,
        env: { ...process.env, ...gitEnv(options.env) },
        stdio: [stdinFd ?? (options.input === undefined ? 'ignore' : 'pipe'), 'pipe', 'pipe', ...(options.input3 === undefined ? [] : ['pipe' as const])],
      });
    } finally {
      // The child has its own copy of the descriptor once spawn returned.
      if (stdinFd !== undefined) closeSync(stdinFd);
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let settled = false;
    const finish = (exitCode: number, reason?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (reason) stderr.push(Buffer.from(reason));
      resolve({ exitCode, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), ...(child.pid === undefined ? {} : { pid: child.pid }) });
    };
    const timeoutMs = options.timeoutMs ?? 120_000;
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      finish(-1, `git timed out after ${timeoutMs / 1000}s`);
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => finish(-1, error.message));
    child.on('close', (code) => finish(code ?? -1));
    if (options.input !== undefined) {
      // git may exit before reading all of its input (a failing command); that is its exit code's story.
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(options.input);
    }
    if (options.input3 !== undefined) {
      const third = child.stdio[3] as import('node:stream').Writable;
      third.on('error', () => undefined);
      third.end(options.input3);
    }
  });
}

export async function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const result = await runGit(args, options);
  const out: GitResult = { exitCode: result.exitCode, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
  if (result.pid !== undefined) out.pid = result.pid;
  if (out.exitCode !== 0 && !options.allowFailure) throw gitFailure(['git', ...args].join(' '), `git ${args[0]}`, out.stderr, out.exitCode);
  return out;
}

/** What a failed git command throws: DiskFull when git says the disk is full, else InternalError with its stderr. */
function gitFailure(command: string, what: string, stderr: string, exitCode: number): TugError {
  return diskFullError(stderr, { command }) ?? new TugError('InternalError', `${what} failed: ${stderr.trim() || `exit ${exitCode}`}`, {
    details: { command, exit_code: exitCode, stderr: stderr.slice(-4000) },
  });
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** A git command line as `sh` reads it, each argument single-quoted. */
function shellCommand(args: readonly string[]): string {
  return ['git', ...BASE_ARGS, ...args].map(quote).join(' ');
}

/**
 * `git first` and, when it succeeds, `git then`, as one process started from this one: a shell whose own forks are
 * cheap, where starting each git from a large process (the daemon, ~250 MB) blocks it several ms in fork. stdin goes
 * to the first, stdout is the second's (without its final newline); a failure of either throws as `git` does.
 */
export async function gitThenText(first: readonly string[], then: readonly string[], options: GitOptions): Promise<string> {
  const result = await runGit([], { ...options, shell: `${shellCommand(first)} && exec ${shellCommand(then)}` });
  const stderr = result.stderr.toString('utf8');
  if (result.exitCode !== 0) throw gitFailure(`git ${first.join(' ')} && git ${then.join(' ')}`, `git ${first[0]} or ${then[0]}`, stderr, result.exitCode);
  return result.stdout.toString('utf8').replace(/\n$/, '');
}

/** A git command line for gitShell: the arguments every git call of tug's gets, each single-quoted. */
export function gitCommand(args: readonly string[]): string {
  return shellCommand(args);
}

/** One argument quoted for gitShell's `sh`. */
export const shellArg = quote;

/**
 * A script of git commands (gitCommand) as one process started from this one (see gitThenText), for a caller that
 * needs more than one command's result; never rejects: its exit code, stdout and stderr come back as they are.
 */
export async function gitShell(script: string, options: GitOptions): Promise<GitResult> {
  const result = await runGit([], { ...options, shell: script });
  return { exitCode: result.exitCode, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
}

/** In a gitSteps command: the first command's output. */
export const FIRST_OUTPUT = Symbol('the first command\'s output');

/** In a gitSteps command: `prefix` followed by the first `chars` characters of the first command's output. */
export interface FirstOutputStart {
  prefix: string;
  chars: number;
}

/** One command of gitSteps: its arguments, the environment it alone gets, and whether it reads `input3` as its stdin. */
export interface GitStep {
  args: ReadonlyArray<string | typeof FIRST_OUTPUT | FirstOutputStart>;
  env?: Record<string, string>;
  readsInput3?: boolean;
}

/**
 * Git commands one after the other, each only once the one before succeeded, as one process started from this one
 * (see gitThenText). The first reads stdin and prints one line (an object id), which the others get in place of
 * FIRST_OUTPUT; a later one may read `input3` instead. A failure of the first throws as `git` does; after it, how
 * many commands succeeded (`done`, the first counted), the exit code and stderr come back for the caller to judge.
 */
export async function gitSteps(steps: readonly GitStep[], options: GitOptions & { input3?: string }): Promise<{ output: string; done: number; exitCode: number; stderr: string }> {
  const command = (step: GitStep) => {
    const assignments = Object.entries(step.env ?? {}).map(([name, value]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TugError('InternalError', `not a variable name: ${name}`);
      return `${name}=${quote(value)} `;
    });
    const args = step.args.map((arg) => {
      if (arg === FIRST_OUTPUT) return '"$o"';
      if (typeof arg === 'string') return quote(arg);
      if (!Number.isInteger(arg.chars) || arg.chars < 1) throw new TugError('InternalError', `not a length: ${arg.chars}`);
      return `${quote(arg.prefix)}"$(printf '%.${arg.chars}s' "$o")"`;
    });
    return `${assignments.join('')}${shellCommand([])} ${args.join(' ')}${step.readsInput3 ? ' <&3' : ''}`;
  };
  // The later commands' own output is dropped: each success prints one line of the shell's.
  const later = (step: GitStep) => `${command(step)} >/dev/null`;
  const [first, ...rest] = steps;
  // Each success prints a line: the first's output, then one per later command.
  const shell = [`o=$(${command(first!)})`, `printf '%s\\n' "$o"`, ...rest.flatMap((step) => [later(step), 'echo']), 'true'].join(' && ');
  const result = await runGit([], { ...options, shell });
  const stdout = result.stdout.toString('utf8');
  const stderr = result.stderr.toString('utf8');
  const lines = stdout.split('\n');
  if (lines.length < 2) throw gitFailure(['git', ...first!.args.map(String)].join(' '), `git ${String(first!.args[0])}`, stderr, result.exitCode === 0 ? -1 : result.exitCode);
  return { output: lines[0]!, done: lines.length - 1, exitCode: result.exitCode, stderr };
}

/** Runs git and returns stdout without its final newline. */
export async function gitText(args: readonly string[], options: GitOptions): Promise<string> {
  return (await git(args, options)).stdout.replace(/\n$/, '');
}

/** Runs git and returns raw stdout bytes (for object contents). */
export async function gitBytes(args: readonly string[], options: GitOptions): Promise<Uint8Array> {
  const result = await runGit(args, options);
  if (result.exitCode !== 0) {
    throw diskFullError(result.stderr.toString(), { command: ['git', ...args].join(' ') }) ?? new TugError('InternalError', `git ${args[0]} failed: ${result.stderr.toString().trim()}`, {
      details: { command: ['git', ...args].join(' '), exit_code: result.exitCode },
    });
  }
  return result.stdout;
}

export const ZERO_OID = '0000000000000000000000000000000000000000';
