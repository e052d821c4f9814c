// The single place tug spawns git: a clean environment, no hooks, no pager, and failures turned into TugErrors.
import { execa } from 'execa';
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

function gitEnv(extra: Record<string, string> | undefined): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', ...extra };
  for (const name of INHERITED_GIT_VARIABLES) if (!(extra && name in extra)) env[name] = undefined;
  return env;
}

/** Hooks never run for tug's own git calls: a sandbox checkout is not the user's checkout. */
const BASE_ARGS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.pager=cat', '-c', 'advice.detachedHead=false'];

export async function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const result = await execa('git', [...BASE_ARGS, ...args], {
    cwd: options.cwd,
    env: gitEnv(options.env),
    extendEnv: true,
    reject: false,
    stripFinalNewline: false,
    timeout: options.timeoutMs ?? 120_000,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
  const out: GitResult = { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
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
  const result = await execa('git', [...BASE_ARGS, ...args], {
    cwd: options.cwd,
    env: gitEnv(options.env),
    encoding: 'buffer',
    reject: false,
    timeout: options.timeoutMs ?? 120_000,
    stripFinalNewline: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
  if (result.exitCode !== 0) {
    throw new TugError('InternalError', `git ${args[0]} failed: ${Buffer.from(result.stderr).toString().trim()}`, {
      details: { command: ['git', ...args].join(' '), exit_code: result.exitCode },
    });
  }
  return result.stdout;
}

export const ZERO_OID = '0000000000000000000000000000000000000000';
