// Where a repository's daemon listens: derived from the git common dir alone, so a thin client finds it without git.
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { privateDirProblem, privateRoot } from '../workspace/private-dir.js';

/** Keys of the environment that change what tug does; a daemon serves only callers whose values match its own. */
export const ENV_KEYS = ['PATH', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'PYTHONPATH', 'HOME', 'GIT_CEILING_DIRECTORIES'];

export function envFingerprint(env: NodeJS.ProcessEnv): string {
  const keys = Object.keys(env).filter((k) => k.startsWith('TUG_') || k.startsWith('GIT_') || ENV_KEYS.includes(k)).sort();
  return createHash('sha256').update(JSON.stringify(keys.map((k) => [k, env[k]]))).digest('hex');
}

/**
 * Unix socket paths are limited to ~100 bytes, so the socket lives under a hash in the user's private directory
 * (0700, see lib/workspace/private-dir.ts): no other user can connect to it or put a socket of theirs there.
 */
export function socketPathFor(commonDir: string): string {
  const id = createHash('sha256').update(realpathSync(commonDir)).digest('hex').slice(0, 16);
  return path.join(privateRoot(), `daemon-${id}.sock`);
}

/**
 * Why a client must not connect to `socket`, or null: it must be a socket owned by this user in a private directory
 * of this user. Checked with lstat, so a symlink planted in its place is refused, not followed.
 */
export function socketProblem(socket: string): string | null {
  const dirProblem = privateDirProblem(path.dirname(socket));
  if (dirProblem) return `its directory ${path.dirname(socket)} is not private (${dirProblem})`;
  const info = lstatSync(socket, { throwIfNoEntry: false });
  if (!info) return 'it does not exist';
  if (!info.isSocket()) return 'it is not a socket';
  const uid = typeof process.getuid === 'function' ? process.getuid() : info.uid;
  if (info.uid !== uid) return `it is owned by uid ${info.uid}, not ${uid}`;
  return null;
}

/** The git common dir above `dir`, found by reading `.git` entries (no git process). */
export function findCommonDir(dir: string): string | null {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const dotGit = path.join(current, '.git');
    const info = statSync(dotGit, { throwIfNoEntry: false });
    if (info?.isDirectory()) return dotGit;
    if (info?.isFile()) {
      const match = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      if (!match) return null;
      const gitDir = path.resolve(current, match[1]!.trim());
      const common = statSync(path.join(gitDir, 'commondir'), { throwIfNoEntry: false });
      return common ? path.resolve(gitDir, readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim()) : gitDir;
    }
    if (path.dirname(current) === current) return null;
  }
}

/**
 * Which build of tug this process runs: the modification times of the compiled CLI and its bundle. A daemon asked by
 * a client of another build (tug was rebuilt or upgraded while it ran) is stale: it hands the command back and exits.
 */
export function buildId(): string {
  const mtime = (relative: string) => statSync(new URL(relative, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return `${mtime('../cli/main.js')}:${mtime('../cli-bundle/main.cjs')}`;
}
