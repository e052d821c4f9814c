// Checks every path a caller hands tug: relative, inside the workspace, no `..`, and no symlink that leads out.
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import type { Repo } from '../git/repo.js';

/** Maps a workspace-relative path given by a caller to a repo-relative posix path, or throws InvalidArgument. */
export async function resolveUserPath(repo: Repo, input: string, argument = 'file'): Promise<string> {
  const reject = (reason: string): never => {
    throw new TugError('InvalidArgument', `${argument} ${JSON.stringify(input)}: ${reason}`, { details: { argument, path: input, reason } });
  };
  if (typeof input !== 'string' || input.length === 0) reject('empty path');
  if (input.includes('\0')) reject('contains a NUL byte');
  if (path.isAbsolute(input) || /^[a-zA-Z]:[\\/]/.test(input) || input.startsWith('\\')) reject('absolute paths are not accepted; use a path relative to the workspace');
  const segments = input.split(/[\\/]+/);
  if (segments.includes('..')) reject('".." is not allowed in paths');
  const relative = path.posix.normalize([repo.prefix, ...segments.filter((s) => s !== '.' && s !== '')].filter(Boolean).join('/'));
  if (relative === '.' || relative.startsWith('../')) reject('path is outside the workspace');
  if (relative === '.git' || relative.startsWith('.git/')) reject('paths inside .git are not part of the workspace');
  await rejectEscapingSymlinks(repo.root, relative, reject);
  return relative;
}

/** Walks the path from the root; any symlinked component must resolve inside the repository. */
async function rejectEscapingSymlinks(root: string, relative: string, reject: (reason: string) => never): Promise<void> {
  const parts = relative.split('/');
  let current = root;
  for (const part of parts) {
    current = path.join(current, part);
    const info = await lstat(current).catch(() => null);
    if (!info) return;
    if (info.isSymbolicLink()) {
      const target = await realpath(current).catch(() => null);
      if (target === null || (target !== root && !target.startsWith(root + path.sep))) reject('a symlink in the path leads outside the workspace');
    }
  }
}
