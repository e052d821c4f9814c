// The tree of a revert commit: a commit's tree with some paths set back to other entries, built in a private index.
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Repo } from './repo.js';
import { git, gitText, gitThenText } from './run-git.js';
import { snapshotIndex } from './snapshot.js';

export interface PathEntry {
  path: string;
  /** null removes the path. */
  oid: string | null;
  mode: string | null;
}

/**
 * `commit`'s tree with `entries` replacing (or removing) those paths; the user's index is never touched. `tree`, when
 * the caller knows it, is `commit`'s tree: if this process's last snapshot was written from it, its index is the start
 * (no `read-tree`); should that road fail in any way, the tree is built the plain way, which reports the error.
 */
export async function treeWithEntries(repo: Repo, scratchDir: string, commit: string, entries: readonly PathEntry[], tree?: string): Promise<string> {
  await mkdir(scratchDir, { recursive: true });
  const indexFile = path.join(scratchDir, `revert-index-${process.pid}-${randomBytes(4).toString('hex')}`);
  const env = { GIT_INDEX_FILE: indexFile };
  const input = indexInfo(entries);
  const clean = async () => {
    await rm(indexFile, { force: true });
    await rm(`${indexFile}.lock`, { force: true });
  };
  try {
    const seed = tree === undefined ? undefined : snapshotIndex(repo, tree);
    if (seed) {
      try {
        await writeFile(indexFile, seed);
        // One process started from this one instead of two (see gitThenText); any failure takes the plain road below.
        return await gitThenText(['update-index', '-z', '--index-info'], ['write-tree'], { cwd: repo.root, env, input });
      } catch {
        await clean();
      }
    }
    await git(['read-tree', commit], { cwd: repo.root, env });
    await git(['update-index', '-z', '--index-info'], { cwd: repo.root, env, input });
    return await gitText(['write-tree'], { cwd: repo.root, env });
  } finally {
    await clean();
  }
}

/** `update-index -z --index-info` lines: a null id removes the path. */
export function indexInfo(entries: readonly PathEntry[]): string {
  return entries.map((e) => (e.oid === null ? `0 ${'0'.repeat(40)}\t${e.path}\0` : `${e.mode ?? '100644'} ${e.oid}\t${e.path}\0`)).join('');
}

/** The first line of a commit's message. */
export async function commitSubject(repo: Repo, commit: string): Promise<string> {
  return (await gitText(['log', '-1', '--format=%s', commit], { cwd: repo.root })).trim();
}
