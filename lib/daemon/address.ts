// Where the user's daemon listens, which build it runs, and which repository a directory belongs to: read without git.
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateRootSync, privateDirProblem, privateRoot } from '../workspace/private-dir.js';

/**
 * The socket of the one daemon per user, the only place its path is computed: `$XDG_RUNTIME_DIR/tug/daemon.sock`,
 * else `$TMPDIR/tug-<uid>/daemon.sock`. `create` makes the directory (mode 0700, checked: lib/workspace/private-dir.ts)
 * for the daemon about to listen.
 */
export function socketPath(env: NodeJS.ProcessEnv = process.env, create = false): string {
  return path.join(create ? ensurePrivateRootSync(env) : privateRoot(env), 'daemon.sock');
}

/**
 * Why a client must not connect to `socket`, or null: it must be a socket owned by this user in a private directory
 * of this user. Checked with lstat, so a symlink planted in its place is refused, not followed.
 */
export function socketProblem(socket: string): string | null {
  const info = lstatSync(socket, { throwIfNoEntry: false });
  if (!info) return 'it does not exist';
  const dirProblem = privateDirProblem(path.dirname(socket));
  if (dirProblem) return `its directory ${path.dirname(socket)} is not private (${dirProblem})`;
  if (!info.isSocket()) return 'it is not a socket';
  const uid = typeof process.getuid === 'function' ? process.getuid() : info.uid;
  if (info.uid !== uid) return `it is owned by uid ${info.uid}, not ${uid}`;
  return null;
}

/**
 * Variables the daemon itself reads from its own environment (limits, timeouts, tool paths): a caller whose values
 * differ would get another behaviour, so it runs in-process and the daemon makes way. Everything else a command
 * needs comes from the client's environment, sent with each request.
 */
export function envKey(env: NodeJS.ProcessEnv): string {
  const keys = Object.keys(env)
    .filter((k) => (k.startsWith('TUG_') && !k.startsWith('TUG_DAEMON') && k !== 'TUG_NO_DAEMON') || ['PATH', 'HOME', 'PYENV_ROOT', 'RA_LOG'].includes(k))
    .sort();
  return createHash('sha256').update(JSON.stringify(keys.map((k) => [k, env[k]]))).digest('hex').slice(0, 16);
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
