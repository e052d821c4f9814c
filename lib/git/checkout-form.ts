// Converts between blobs and the files git would check out (core.autocrlf, .gitattributes eol/text/filter), so an
// apply writes what `git checkout` would and a staleness check compares what `git add` would store.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { blobOid } from '../core/hash.js';
import { privateSubdir } from '../workspace/private-dir.js';
import type { Repo } from './repo.js';
import { git } from './run-git.js';

export interface BlobWrite {
  path: string;
  bytes: Uint8Array | null;
  mode?: string;
}

/**
 * The blob ids `git add` would store for these working-tree files (clean filters and line-ending normalization
 * applied). Files that cannot be read are left out.
 */
export async function cleanedOids(repo: Repo, paths: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const relative of paths) {
    // One file per call: `--stdin-paths` stops at the first unreadable path and would hide the others.
    const out = await git(['hash-object', '--', relative], { cwd: repo.root, allowFailure: true });
    if (out.exitCode === 0) found.set(relative, out.stdout.trim());
  }
  return found;
}

/**
 * The same writes with each file's bytes as git would check them out at that path: the blob in a private index,
 * `checkout-index` into a scratch directory, read back. A blob git cannot find keeps its bytes unchanged.
 */
export async function checkoutForms<T extends BlobWrite>(repo: Repo, writes: readonly T[]): Promise<T[]> {
  const regular = writes.filter((w) => w.bytes !== null && w.mode !== '120000' && w.mode !== '160000');
  if (regular.length === 0) return [...writes];
  const scratch = await mkdtemp(path.join(await privateSubdir('scratch'), 'checkout-'));
  try {
    const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
    const entries = regular.map((w) => `${w.mode === '100755' ? '100755' : '100644'} ${blobOid(w.bytes!)}\t${w.path}\0`).join('');
    await git(['update-index', '-z', '--add', '--index-info'], { cwd: repo.root, env, input: entries });
    const out = `${path.join(scratch, 'out')}${path.sep}`;
    await git(['checkout-index', '-a', '-f', `--prefix=${out}`], { cwd: repo.root, env, allowFailure: true });
    const converted = new Map<string, Uint8Array>();
    for (const write of regular) {
      const bytes = await readFile(path.join(out, write.path)).catch(() => null);
      if (bytes && !Buffer.from(write.bytes!).equals(bytes)) converted.set(write.path, bytes);
    }
    if (converted.size === 0) return [...writes];
    return writes.map((w) => (converted.has(w.path) ? { ...w, bytes: converted.get(w.path)! } : w));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
