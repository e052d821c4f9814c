// Starts one git process and collects what it prints: used by run-git.ts directly and by the git helper process (git-helper-main.ts) for a long-lived tug.
import { spawn } from 'node:child_process';

export interface SpawnGitOptions {
  cwd: string;
  /** The whole environment git gets (run-git.ts makes it); an undefined value leaves the variable out. */
  env: Record<string, string | undefined>;
  input?: string | Uint8Array | undefined;
  timeoutMs: number;
}

export interface RawResult {
  exitCode: number;
  stdout: Buffer;
  stderr: Buffer;
  pid?: number;
}

/**
 * One git process, on node:child_process directly: an operation runs several git commands, and execa's
 * machinery cost ~3 ms of CPU per call on top of the spawn itself. Never rejects: a git that cannot start
 * or times out is exit code -1 with the reason in stderr. `args` are git's own, without the program name.
 */
export function spawnGit(args: readonly string[], options: SpawnGitOptions): Promise<RawResult> {
  return new Promise((resolve) => {
    const child = spawn('git', args, {
      cwd: options.cwd,
      env: options.env,
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
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      finish(-1, `git timed out after ${options.timeoutMs / 1000}s`);
    }, options.timeoutMs);
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
