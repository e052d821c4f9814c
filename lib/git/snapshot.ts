// Computes the workspace snapshot as a git tree without touching the user's index, HEAD or refs.
import { mkdir, open, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { cachedRootTree, indexTreeEntries } from './index-file.js';
import { looseObjectPath, type Repo } from './repo.js';
import { git, gitText } from './run-git.js';

/**
 * The snapshot tree: tracked files as they are on disk plus untracked, not-ignored files.
 * A private copy of the real index seeds git's stat cache, so only changed files are re-hashed.
 * `headTree`, HEAD's tree when the caller reads it anyway, is a tree known to be in the repository.
 */
export async function writeSnapshotTree(repo: Repo, scratchDir: string, headTree?: Promise<string | null>): Promise<string> {
  const knownTree = headTree?.catch(() => null);
  await mkdir(scratchDir, { recursive: true });
  const indexFile = path.join(scratchDir, `index-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const user = await copyIndex(path.join(repo.gitDir, 'index'), indexFile);
    const env = { GIT_INDEX_FILE: indexFile };
    await git(['add', '-A', '--ignore-errors', '--', '.'], { cwd: repo.root, env });
    // When git last checked the entries' stat data: what a later look at the files compares with (racily clean ones).
    const checked = (await stat(indexFile).catch(() => undefined))?.mtimeMs;
    const index = await readFile(indexFile).catch(() => undefined);
    const added = index && index.length <= SEED_LIMIT ? createHash('sha256').update(index).digest('hex') : undefined;
    const same = lastIndex && added !== undefined && lastIndex.repo === repo.commonDir && lastIndex.added === added ? lastIndex : undefined;
    if (same && (await looseObject(repo, same.tree))) return same.tree;
    // A tree is a function of the entries: when `add -A` left them as they are in the user's index (a clean checkout),
    // the root of that index's cache tree is the tree write-tree would answer, while that tree is there (HEAD's, or a
    // loose object). `add -A` itself keeps the cache tree valid unless the user's index is racily clean (written in the
    // same second as the files, as right after a commit): then it adds those files again, the same blobs.
    const cached = index && (cachedRootTree(index) ?? (user && sameTree(user, index)));
    if (cached && (cached === (await knownTree) || (await looseObject(repo, cached)))) {
      lastIndex = index.length <= SEED_LIMIT ? { repo: repo.commonDir, tree: cached, bytes: index, added, checked } : undefined;
      return cached;
    }
    const tree = await gitText(['write-tree'], { cwd: repo.root, env });
    const bytes = await readFile(indexFile).catch(() => undefined);
    lastIndex = bytes && bytes.length <= SEED_LIMIT ? { repo: repo.commonDir, tree, bytes, added, checked } : undefined;
    return tree;
  } finally {
    await rm(indexFile, { force: true });
    await rm(`${indexFile}.lock`, { force: true });
  }
}

/**
 * The private index the last snapshot tree was written from, so a result tree built on that tree starts from it instead
 * of a `read-tree` (one git process less per change). It never goes stale: write-tree made exactly that tree from these
 * entries, whatever changes on disk later, and it is only handed out for that tree id in that repository.
 */
let lastIndex: { repo: string; tree: string; bytes: Buffer; added: string | undefined; checked: number | undefined } | undefined;
/**
 * The same index after `add -A` (the same bytes: the user's index and every file's stat data as before) makes the same
 * tree, so the last snapshot's tree answers without a `write-tree` (one git process less per operation of a long-lived
 * process on an unchanged working tree). Only while that tree is still a loose object, as write-tree leaves it: one a
 * `git gc` packed or pruned since is written again the usual way.
 */
async function looseObject(repo: Repo, oid: string): Promise<boolean> {
  return (await stat(looseObjectPath(repo, oid)).catch(() => null))?.isFile() ?? false;
}

/** Large indexes are not kept (a long-lived process holds one). */
const SEED_LIMIT = 8 * 1024 * 1024;

/**
 * The index `tree` was written from by this process's last snapshot, with when `add -A` last wrote it (milliseconds,
 * the stat data's reference time), if that is the tree asked for.
 */
export function snapshotIndexState(repo: Repo, tree: string): { bytes: Buffer; checked: number } | undefined {
  const state = lastIndex && lastIndex.repo === repo.commonDir && lastIndex.tree === tree ? lastIndex : undefined;
  return state && state.checked !== undefined ? { bytes: state.bytes, checked: state.checked } : undefined;
}

/** The index bytes `tree` was written from by this process's last snapshot, if that is the tree asked for. */
export function snapshotIndex(repo: Repo, tree: string): Buffer | undefined {
  return lastIndex && lastIndex.repo === repo.commonDir && lastIndex.tree === tree ? lastIndex.bytes : undefined;
}

/**
 * The copy keeps the index's modification time: git re-reads an entry whose file changed in the same second as the
 * index was written ("racily clean") only by comparing with that time, and a copy dated now hid such same-size edits.
 */
async function copyIndex(from: string, to: string): Promise<Buffer | undefined> {
  // One open file for the time and the bytes: git replaces an index by renaming a new one over it.
  const file = await open(from, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!file) return undefined;
  try {
    const [info, bytes] = [await file.stat(), await file.readFile()];
    await writeFile(to, bytes);
    await utimes(to, info.atime, info.mtime);
    return bytes;
  } finally {
    await file.close();
  }
}

/** The root of `before`'s cache tree when `after` holds the same entries (paths, modes, ids), which make that tree. */
function sameTree(before: Buffer, after: Buffer): string | undefined {
  const root = cachedRootTree(before);
  const [was, is] = root === undefined ? [] : [indexTreeEntries(before), indexTreeEntries(after)];
  if (!was || !is || was.length !== is.length) return undefined;
  return was.every((e, i) => e.path === is[i]!.path && e.oid === is[i]!.oid && e.mode === is[i]!.mode) ? root : undefined;
}

export interface TreePath {
  mode: string;
  type: string;
  oid: string;
  path: string;
}

export interface TreeEntry extends TreePath {
  size: number;
}

/** Every blob of a tree, recursively, with sizes; `git ls-tree -r -l -z` parsed. */
export async function listTree(repo: Repo, tree: string, paths: readonly string[] = []): Promise<TreeEntry[]> {
  const out = await git(['ls-tree', '-r', '-l', '-z', '--full-tree', tree, '--', ...paths], { cwd: repo.root });
  return parseLsTree(out.stdout) as TreeEntry[];
}

/**
 * Every blob of a tree, recursively, without sizes: git then opens no object to learn one, which was two thirds of
 * the listing's time (3 of 5 ms on 200 files, 15 of 25 ms on 20,000).
 */
export async function listTreePaths(repo: Repo, tree: string, paths: readonly string[] = []): Promise<TreePath[]> {
  const key = `${repo.root}\0${tree}`;
  if (lastListing?.key !== key) {
    // The index this process just wrote the tree from lists it without a git process.
    const bytes = snapshotIndex(repo, tree);
    const entries = bytes && indexTreeEntries(bytes);
    if (entries) lastListing = { key, entries: Promise.resolve(entries) };
  }
  const known = lastListing?.key === key ? lastListing.entries : undefined;
  // A tree never changes, so its whole listing (made or under way) answers again, and for literal paths.
  if (known && paths.length === 0) return [...(await known)];
  if (known && paths.every((p) => LITERAL_PATH.test(p))) {
    const wanted = new Set(paths.map((p) => p.replace(/\/+$/, '')));
    return (await known).filter((e) => namedOrUnder(e.path, wanted));
  }
  const listing = git(['ls-tree', '-r', '-z', '--full-tree', tree, '--', ...paths], { cwd: repo.root }).then((out) => parseLsTree(out.stdout));
  if (paths.length > 0) return listing;
  lastListing = { key, entries: listing };
  listing.catch(() => {
    if (lastListing?.entries === listing) lastListing = undefined;
  });
  return [...(await listing)];
}

/** The last whole listing asked for (one, so a long-lived process keeps no more than that). */
let lastListing: { key: string; entries: Promise<TreePath[]> } | undefined;

/**
 * Whether `file` is one of `paths` or inside one of them: its own path and each parent directory looked up, so a
 * rename's 501 files against a 503-entry listing is ~1,500 lookups, not 250,000 string comparisons (~3.5 ms a call).
 */
function namedOrUnder(file: string, paths: ReadonlySet<string>): boolean {
  if (paths.has(file)) return true;
  for (let slash = file.lastIndexOf('/'); slash > 0; slash = file.lastIndexOf('/', slash - 1)) {
    if (paths.has(file.slice(0, slash))) return true;
  }
  return false;
}
/** Paths a pathspec matches literally: no wildcard, no magic, no `.`, `..` or `//`; others go to git. */
const LITERAL_PATH = /^(?!:)(?!.*(?:^|\/)\.{1,2}(?:\/|$))(?!.*\/\/)[^*?[\]\\]+$/;

/** `git ls-tree -z` output, with `-l` or without, as entries (a tree's size is '-', read as 0). */
function parseLsTree(stdout: string): Array<TreePath & { size?: number }> {
  const entries: Array<TreePath & { size?: number }> = [];
  for (const record of stdout.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode, type, oid, size] = record.slice(0, tab).split(/ +/);
    const entry: TreePath & { size?: number } = { mode: mode!, type: type!, oid: oid!, path: record.slice(tab + 1) };
    if (size !== undefined) entry.size = size === '-' ? 0 : Number(size);
    entries.push(entry);
  }
  return entries;
}

/** Paths that differ between two trees (the staleness report). */
export async function changedPaths(repo: Repo, from: string, to: string): Promise<string[]> {
  const out = await git(['diff-tree', '-r', '-z', '--no-renames', '--name-only', from, to], { cwd: repo.root });
  return out.stdout.split('\0').filter(Boolean).sort();
}

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** The immediate children of a directory in a tree (`git ls-tree -l`, not recursive); '' is the root. */
export async function listDirectoryEntries(repo: Repo, tree: string, dir: string): Promise<TreeEntry[]> {
  const out = await git(['ls-tree', '-l', '-z', '--full-tree', tree, ...(dir ? ['--', `${dir}/`] : [])], { cwd: repo.root });
  return parseLsTree(out.stdout) as TreeEntry[];
}

/** The tree entries at exactly these paths (a file's blob, a directory's tree), without recursing. */
export async function entriesAt(repo: Repo, tree: string, paths: readonly string[]): Promise<Map<string, TreeEntry>> {
  const found = new Map<string, TreeEntry>();
  if (paths.length === 0) return found;
  const out = await git(['ls-tree', '-l', '-z', '--full-tree', tree, '--', ...paths], { cwd: repo.root, env: { GIT_LITERAL_PATHSPECS: '1' } });
  for (const entry of parseLsTree(out.stdout) as TreeEntry[]) if (paths.includes(entry.path)) found.set(entry.path, entry);
  return found;
}

/** Which of these paths are outside a sparse checkout (index entries git keeps without a file: skip-worktree). */
export async function skipWorktreePaths(repo: Repo, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const out = await git(['ls-files', '-t', '-z', '--', ...paths], { cwd: repo.root, env: { GIT_LITERAL_PATHSPECS: '1' } });
  return out.stdout.split('\0').filter((r) => r.startsWith('S ')).map((r) => r.slice(2)).sort();
}
