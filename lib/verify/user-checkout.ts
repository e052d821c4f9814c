// Finds the user's repository from a sandbox (its object alternate), so verification can keep the checks away from it without every caller passing it in.
import { readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';

export interface UserRepository {
  /** The user's git dir shared by all its worktrees (holds the objects the sandbox borrows). */
  commonDir: string;
  /** Every working tree of the user's repository: the main one and linked worktrees, real paths. */
  checkouts: string[];
}

/**
 * A sandbox is a `git init` whose `.git/objects/info/alternates` names the user's object store (lib/git/checkout.ts);
 * the store's parent is the user's common git dir, whose parent is the main working tree (a non-bare repository), and
 * whose `worktrees/<name>/gitdir` files name the linked ones. Only files are read: nothing runs git here. Null when the
 * directory borrows nobody's objects (a plain directory handed to verify()).
 */
export async function userRepositoryOf(sandbox: string): Promise<UserRepository | null> {
  const alternates = await readFile(path.join(sandbox, '.git', 'objects', 'info', 'alternates'), 'utf8').catch(() => null);
  const objects = alternates?.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#') && path.isAbsolute(l));
  if (!objects) return null;
  const commonDir = await realpath(path.dirname(objects)).catch(() => path.dirname(objects));
  const checkouts = new Set<string>();
  if (path.basename(commonDir) === '.git') checkouts.add(path.dirname(commonDir));
  for (const name of await readdir(path.join(commonDir, 'worktrees')).catch(() => [] as string[])) {
    const gitdir = (await readFile(path.join(commonDir, 'worktrees', name, 'gitdir'), 'utf8').catch(() => '')).trim();
    if (path.isAbsolute(gitdir)) checkouts.add(path.dirname(gitdir));
  }
  const real = await Promise.all([...checkouts].map((dir) => realpath(dir).catch(() => dir)));
  return { commonDir, checkouts: [...new Set(real)].sort() };
}

/** Whether `file` is `dir` or inside it (both absolute, already resolved). */
export function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
