// Checks every path a caller hands tug: relative, inside the workspace, no `..`, no `.git`, no symlink that leads out,
// and for paths tug writes: a file name (no trailing slash) outside any nested repository or submodule.
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import type { Repo } from '../git/repo.js';

type Reject = (reason: string) => never;

/**
 * `.git` in any case, and the names file systems treat as the same (NTFS drops trailing dots and spaces, knows the 8.3
 * alias GIT~1, and reads `.git::$INDEX_ALLOCATION` as the directory itself through an alternate data stream): git
 * itself refuses such paths in trees (its is_ntfs_dotgit), and tug never writes one.
 */
export function isGitDirName(segment: string): boolean {
  return /^\.git[. ]*(?::.*)?$/i.test(segment) || /^git~\d+[. ]*(?::.*)?$/i.test(segment);
}

/** Maps a workspace-relative path given by a caller to a repo-relative posix path, or throws InvalidArgument. */
export async function resolveUserPath(repo: Repo, input: string, argument = 'file'): Promise<string> {
  const reject = rejecter(input, argument);
  if (typeof input !== 'string' || input.length === 0) reject('empty path');
  if (input.includes('\0')) reject('contains a NUL byte');
  if (path.isAbsolute(input) || /^[a-zA-Z]:[\\/]/.test(input) || input.startsWith('\\')) reject('absolute paths are not accepted; use a path relative to the workspace');
  const segments = input.split(/[\\/]+/);
  if (segments.includes('..')) reject('".." is not allowed in paths');
  const relative = path.posix.normalize([repo.prefix, ...segments.filter((s) => s !== '.' && s !== '')].filter(Boolean).join('/'));
  if (relative === '.' || relative.startsWith('../')) reject('path is outside the workspace');
  if (relative.split('/').some(isGitDirName)) reject('paths inside .git are not part of the workspace');
  await rejectEscapingSymlinks(repo.root, relative, reject, false);
  return relative;
}

/**
 * A path tug will create, change, move or delete: as resolveUserPath, and it names a file (no trailing slash), and no
 * directory on the way is another repository (a submodule's checkout or a nested clone), whose files its own git owns.
 */
export async function resolveWritePath(repo: Repo, input: string, argument = 'file'): Promise<string> {
  const reject = rejecter(input, argument);
  if (typeof input === 'string' && /[\\/]$/.test(input)) reject('a trailing slash names a directory; give the file path');
  const relative = await resolveUserPath(repo, input, argument);
  await rejectEscapingSymlinks(repo.root, relative, reject, true);
  return relative;
}

function rejecter(input: string, argument: string): Reject {
  return (reason: string): never => {
    throw new TugError('InvalidArgument', `${argument} ${JSON.stringify(input)}: ${reason}`, { details: { argument, path: input, reason } });
  };
}

/**
 * Walks the path from the root; any symlinked component must resolve inside the repository and outside its .git.
 * With `nested`, a directory holding a `.git` of its own is refused too.
 */
async function rejectEscapingSymlinks(root: string, relative: string, reject: Reject, nested: boolean): Promise<void> {
  const parts = relative.split('/');
  let current = root;
  for (const [index, part] of parts.entries()) {
    current = path.join(current, part);
    const info = await lstat(current).catch(() => null);
    if (!info) return;
    if (info.isSymbolicLink()) {
      const target = await realpath(current).catch(() => null);
      if (target === null || (target !== root && !target.startsWith(root + path.sep))) reject('a symlink in the path leads outside the workspace');
      if (path.relative(root, target).split(path.sep).some(isGitDirName)) reject('a symlink in the path leads into .git');
    }
    if (nested && index < parts.length - 1 && (await lstat(path.join(current, '.git')).catch(() => null))) {
      reject(`${parts.slice(0, index + 1).join('/')} is a submodule or another repository; tug does not write inside it`);
    }
  }
}

/**
 * The last check before a write touches the disk: the path has no `.git` component, no symlink among its parent
 * directories, and is not itself a symlink (which a rename would silently turn into a file). Throws UnsafePath.
 */
export async function assertSafeWrite(root: string, relative: string): Promise<void> {
  const unsafe = (reason: string): never => {
    throw new TugError('UnsafePath', `${relative}: ${reason}; nothing was written`, { details: { path: relative, reason } });
  };
  const parts = relative.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || isGitDirName(p))) unsafe('not a plain path inside the workspace');
  let current = root;
  for (const [index, part] of parts.entries()) {
    current = path.join(current, part);
    const info = await lstat(current).catch(() => null);
    if (!info) return;
    if (info.isSymbolicLink()) unsafe(index === parts.length - 1 ? 'the file is a symlink' : `${parts.slice(0, index + 1).join('/')} is a symlink`);
  }
}
