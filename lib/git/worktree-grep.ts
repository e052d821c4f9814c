// `git grep` over the working tree's files instead of the snapshot tree's blobs, when those files still are the
// snapshot: git then reads files instead of inflating every blob (the standard library's 663 files: ~12 against ~63 ms).
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { configFiles } from './identity.js';
import { indexEntries, type IndexEntry } from './index-file.js';
import type { Repo } from './repo.js';
import { git } from './run-git.js';
import { snapshotIndexState } from './snapshot.js';

/**
 * The files of the snapshot `tree` that `git grep ARGS -- PATHSPECS` lists, searched in the working tree through the
 * index this process wrote the tree from; undefined whenever that might differ from searching the tree: no such index,
 * attributes anywhere (a filter or an encoding makes a file differ from its blob), an entry git does not watch or a
 * conflict, a searched file changed in the second its stat data was recorded (git's racily clean case), or, checked
 * after the grep by `git diff-files`, a searched file no longer as `add -A` recorded it. `suffixes` stand for the
 * pathspecs `*SUFFIX`, which match at any depth. Undefined too below `minBytes` of searched files.
 */
export async function grepSnapshotWorktree(
  repo: Repo,
  tree: string,
  args: readonly string[],
  suffixes: readonly string[],
  env: Record<string, string>,
  minBytes = MIN_BYTES,
): Promise<Set<string> | undefined> {
  const state = snapshotIndexState(repo, tree);
  const entries = state && indexEntries(state.bytes);
  if (!state || !entries) return undefined;
  // git greps regular files only, in a tree and in the working tree alike (not a symlink's text, not a submodule).
  const searched = entries.filter((e) => (e.mode === '100644' || e.mode === '100755') && suffixes.some((s) => e.path.endsWith(s)));
  // Below a few MB, inflating the blobs costs less than the second git process (diff-files) this road needs.
  if (searched.reduce((sum, e) => sum + e.size, 0) < minBytes) return undefined;
  const checkedSecond = Math.floor(state.checked / 1000);
  // A file changed in the second its stat data was recorded can hide a later change: git compares its bytes then.
  if (entries.some((e) => e.unwatched || e.stage !== 0 || e.intentToAdd) || searched.some((e) => e.mtime >= checkedSecond)) return undefined;
  if (await attributesPossible(repo, entries)) return undefined;
  // git grep only reads this index (no lock, no refresh written back).
  const indexFile = path.join(os.tmpdir(), `tug-grep-index-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    // A temporary directory that cannot take the file leaves the search to the tree.
    if (!(await writeFile(indexFile, state.bytes).then(() => true, () => false))) return undefined;
    const options = { cwd: repo.root, env: { ...env, GIT_INDEX_FILE: indexFile }, allowFailure: true };
    const pathspecs = suffixes.map((s) => `*${s}`);
    const out = await git([...args, '--', ...pathspecs], options);
    if (out.exitCode !== 0 && out.exitCode !== 1) return undefined;
    // After the grep, every searched file still as `add -A` recorded it (git's own stat test, which is cheaper than
    // this process's: ~46 ms of Node CPU to lstat 2,245 files).
    if ((await git(['diff-files', '--quiet', '--', ...pathspecs], options)).exitCode !== 0) return undefined;
    return new Set(out.stdout.split('\0').filter(Boolean));
  } finally {
    await rm(indexFile, { force: true });
  }
}

/**
 * git's CPU for the grep of the standard library's 11 MB: ~50 ms from the blobs, ~12 ms from the files; the files' road
 * costs ~5 ms more of fixed cost (an index written, `diff-files`), even at ~1.5 MB.
 */
const MIN_BYTES = 2 * 1024 * 1024;

/** Whether any attributes file could apply: the snapshot's own, the repository's, or a global one. */
async function attributesPossible(repo: Repo, entries: readonly IndexEntry[]): Promise<boolean> {
  if (entries.some((e) => e.path === '.gitattributes' || e.path.endsWith('/.gitattributes'))) return true;
  if (['GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_ATTR_SOURCE'].some((v) => process.env[v] !== undefined)) return true;
  const home = os.homedir();
  const xdg = process.env['XDG_CONFIG_HOME'] || path.join(home, '.config');
  const files = [path.join(repo.commonDir, 'info', 'attributes'), path.join(xdg, 'git', 'attributes'), '/etc/gitattributes'];
  if ((await Promise.all(files.map((f) => stat(f).then(() => true, () => false)))).some(Boolean)) return true;
  // core.attributesFile named in any config file git reads, or an include that could name it.
  const texts = await Promise.all(configFiles(repo, process.env).map((f) => readFile(f, 'utf8').catch(() => '')));
  return texts.some((t) => /attributesfile|include/i.test(t));
}
