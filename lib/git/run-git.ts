// The single place tug spawns git: a clean environment, no hooks, no pager, and failures turned into TugErrors.
import { spawn } from 'node:child_process';
import { TugError } from '../core/errors.js';

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
}

/**
 * Variables that would point git at a different repository or index than the one tug chose.
 * `git tug` may run with some of them set; tug always passes cwd explicitly instead.
 */
const INHERITED_GIT_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX', 'GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE'];

function gitEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', ...extra };
  for (const name of INHERITED_GIT_VARIABLES) if (!(extra && name in extra)) delete env[name];
  return env;
}

/** Hooks never run for tug's own git calls: a sandbox checkout is not the user's checkout. */
const BASE_ARGS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.pager=cat', '-c', 'advice.detachedHead=false'];

export async function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const result = await spawnGit(args, options);
  const out: GitResult = { exitCode: result.exitCode, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
  if (out.exitCode !== 0 && !options.allowFailure) {
    throw new TugError('InternalError', `git ${args[0]} failed: ${out.stderr.trim() || `exit ${out.exitCode}`}`, {
      details: { command: ['git', ...args].join(' '), exit_code: out.exitCode, stderr: out.stderr.slice(-4000) },
    });
  }
  return out;
}

/** Runs git and returns stdout without its final newline. */
export async function gitText(args: readonly string[], options: GitOptions): Promise<string> {
  return (await git(args, options)).stdout.replace(/\n$/, '');
}

/** Runs git and returns raw stdout bytes (for object contents). */
export async function gitBytes(args: readonly string[], options: GitOptions): Promise<Uint8Array> {
  const result = await spawnGit(args, options);
  if (result.exitCode !== 0) {
    throw new TugError('InternalError', `git ${args[0]} failed: ${result.stderr.toString('utf8').trim()}`, {
      details: { command: ['git', ...args].join(' '), exit_code: result.exitCode },
    });
  }
  return result.stdout;
}

/**
 * One git process with its whole output; node:child_process rather than execa, because this runs several times in every
 * command and execa's own start-up and per-call work were a visible part of a cold `tug snapshot`. Exit code -1 when
 * git could not start or was killed (the time limit).
 */
function spawnGit(args: readonly string[], options: GitOptions): Promise<{ exitCode: number; stdout: Buffer; stderr: Buffer }> {
  return new Promise((resolve) => {
    const child = spawn('git', [...BASE_ARGS, ...args], {
      cwd: options.cwd,
      env: gitEnv(options.env),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 120_000,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    let settled = false;
    const finish = (exitCode: number) => {
      if (settled) return;
      settled = true;
      resolve({ exitCode, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) });
    };
    child.on('error', () => finish(-1));
    child.on('close', (code) => finish(code ?? -1));
    if (child.stdin) {
      // git may exit before reading all of its input (a failing command); the exit code says what happened.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input);
    }
  });
}

export const ZERO_OID = '0000000000000000000000000000000000000000';
