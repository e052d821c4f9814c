// The single place tug spawns git: a clean environment, no hooks, no pager, and failures turned into TugErrors.
import { spawn } from 'node:child_process';
import { diskFullError, TugError } from '../core/errors.js';

export interface GitOptions {
  cwd: string;
  env?: Record<string, string>;
  input?: string | Uint8Array;
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
function runGit(args: readonly string[], options: GitOptions & { shell?: string }): Promise<RawResult> {
  return new Promise((resolve) => {
    const child = spawn(options.shell === undefined ? 'git' : 'sh', options.shell === undefined ? [...BASE_ARGS, ...args] : ['-c', options.shell], {
      cwd: options.cwd,
      env: { ...process.env, ...gitEnv(options.env) },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
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

/** In gitThenWith's second command: the first's output. */
export const FIRST_OUTPUT = Symbol('the first command\'s output');

/**
 * `git first` (with `firstEnv` added to its environment alone) and, when it succeeds, `git then` with the first's
 * output (one line: an object id) in place of each FIRST_OUTPUT, as one process started from this one (see
 * gitThenText). stdin goes to the first. A failure of the first throws as `git` does; the second's exit code and
 * stderr come back beside the first's output, for the caller to judge as it would judge `git then` alone.
 */
export async function gitThenWith(
  first: readonly string[],
  firstEnv: Record<string, string>,
  then: ReadonlyArray<string | typeof FIRST_OUTPUT>,
  options: GitOptions,
): Promise<{ output: string; exitCode: number; stderr: string }> {
  const assignments = Object.entries(firstEnv)
    .map(([name, value]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TugError('InternalError', `not a variable name: ${name}`);
      return `${name}=${quote(value)} `;
    })
    .join('');
  const second = then.map((arg) => (arg === FIRST_OUTPUT ? '"$o"' : quote(arg))).join(' ');
  const shell = `o=$(${assignments}${shellCommand(first)}) && printf '%s\\n' "$o" && exec ${shellCommand([])} ${second}`;
  const result = await runGit([], { ...options, shell });
  const stdout = result.stdout.toString('utf8');
  const stderr = result.stderr.toString('utf8');
  // The first's output is printed only once it succeeded: none, and the failure is the first's.
  if (!stdout.endsWith('\n')) throw gitFailure(['git', ...first].join(' '), `git ${first[0]}`, stderr, result.exitCode === 0 ? -1 : result.exitCode);
  return { output: stdout.slice(0, -1), exitCode: result.exitCode, stderr };
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
