// Drives tug through its test-only fault points (TUG_FAULT_INJECT): start it paused at a step, act, then let it go on.
import type { ResultPromise } from 'execa';
import { execa } from './execa.js';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { patchset, TUG_BIN, type TugRun } from './cli.js';

export interface PausedTug {
  /** Lets tug continue past the point and returns how it ended. */
  resume(): Promise<TugRun>;
}

/** Starts `tug args` and resolves once it waits at `point`; rejects if it ends or takes over 30 s before that. */
export async function tugPausedAt(cwd: string, point: string, args: string[], input?: string): Promise<PausedTug> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-fault-'));
  const child: ResultPromise = execa('node', [TUG_BIN, ...args], {
    cwd,
    reject: false,
    env: { TUG_LOCK_TIMEOUT_MS: '2000', TUG_FAULT_INJECT: `${point}:pause`, TUG_FAULT_DIR: dir },
    ...(input === undefined ? { stdin: 'ignore' as const } : { input }),
  });
  let ended = false;
  void child.then(() => (ended = true));
  const deadline = Date.now() + 30_000;
  while (!existsSync(path.join(dir, `${point}.reached`))) {
    if (ended || Date.now() > deadline) {
      const result = await child;
      throw new Error(`tug never reached ${point}: exit ${result.exitCode}\n${String(result.stdout)}\n${String(result.stderr)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    async resume() {
      await writeFile(path.join(dir, `${point}.go`), '');
      const result = await child;
      await rm(dir, { recursive: true, force: true });
      let json: any;
      try {
        json = JSON.parse(String(result.stdout));
      } catch {
        json = undefined;
      }
      return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr), json };
    },
  };
}

/** A real git process holding `ref`'s lock (an open `update-ref --stdin` transaction) until release() is called. */
export async function holdRefLock(cwd: string, ref: string, oid: string): Promise<{ release(): Promise<void> }> {
  const child = execa('git', ['update-ref', '--stdin'], { cwd, stdin: 'pipe', reject: false });
  child.stdin!.write(`start\nupdate ${ref} ${oid} ${oid}\nprepare\n`);
  const lockFile = path.join(cwd, '.git', `${ref}.lock`);
  const deadline = Date.now() + 10_000;
  while (!existsSync(lockFile) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!existsSync(lockFile)) throw new Error(`git did not take ${lockFile}`);
  return {
    async release() {
      child.stdin!.end('abort\n');
      await child;
    },
  };
}

/** A two-file rename as a patchset, and the `--commit` call that lands it: the case the commit and lock tests break. */
export const SOURCE = { 'a.py': 'def f():\n    return 1\n', 'b.py': 'from a import f\nf()\n' };
export const RENAME = patchset([
  { file: 'a.py', line: 1, col: 5, old_text: 'f', new_text: 'g' },
  { file: 'b.py', line: 1, col: 15, old_text: 'f', new_text: 'g' },
  { file: 'b.py', line: 2, col: 1, old_text: 'f', new_text: 'g' },
]);
export const COMMIT = ['apply-patchset', '-f', '-', '--commit', '--verify', 'none'];
