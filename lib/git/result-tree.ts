// A change's result tree written by git processes that need nothing more from this one once started, so the main thread can prove the change (a TypeScript rename's completeness check) meanwhile: objects only, never a ref.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { blobOid } from '../core/hash.js';
import type { Repo } from './repo.js';
import { indexInfo, treeWithEntries, type PathEntry } from './revert-tree.js';
import { gitCommand, gitShell, shellArg } from './run-git.js';
import { snapshotIndex } from './snapshot.js';
import { FAST_IMPORT, fastImportIds, fastImportInput, writeBlobs } from './write-blobs.js';

/** One path of the result: new bytes with their mode, or null bytes to remove it. */
export interface TreeWrite {
  path: string;
  bytes: Uint8Array | null;
  mode: string;
}

/**
 * Starts writing `baseTree` (the tree of `base`) with `writes` applied: `fast-import` for the new blobs and, at the same
 * time, the tree from a copy of this process's last snapshot index (`update-index` with blob ids computed here, then
 * `write-tree --missing-ok`, since the blobs may still be on their way). Both read their input from scratch files, not
 * pipes, so they run to the end while this process's main thread is busy. The tree is answered only once fast-import
 * answered the very ids it names; otherwise (a failure of the tree's git) it is built the plain way from fast-import's
 * ids, and a failed fast-import throws as writeBlobs does. Whatever happens, a tree or blobs written here are
 * unreferenced objects until a commit names them.
 *
 * Null when it cannot start this way (the caller takes the plain road): no blob to write, no index of `baseTree` in
 * this process, a repository of another object format than SHA-1, or a scratch file that could not be written.
 */
export function startResultTree(repo: Repo, scratchDir: string, base: string, baseTree: string, writes: readonly TreeWrite[]): Promise<string> | null {
  const blobs = writes.flatMap((w) => (w.bytes === null ? [] : [w.bytes]));
  const seed = snapshotIndex(repo, baseTree);
  if (blobs.length === 0 || !seed || !/^[0-9a-f]{40}$/.test(baseTree)) return null;
  const expected = blobs.map((bytes) => blobOid(bytes));
  const ids = new Map(writes.flatMap((w) => (w.bytes === null ? [] : [w])).map((w, i) => [w, expected[i]!]));
  const stem = path.join(scratchDir, `result-${process.pid}-${randomBytes(4).toString('hex')}`);
  const files = { blobs: `${stem}.blobs`, entries: `${stem}.entries`, index: `${stem}.index`, ids: `${stem}.ids`, errors: `${stem}.errors` };
  const clean = () => Promise.all([...Object.values(files), `${files.index}.lock`].map((f) => rm(f, { force: true })));
  try {
    mkdirSync(scratchDir, { recursive: true });
    writeFileSync(files.blobs, fastImportInput(blobs));
    writeFileSync(files.entries, indexInfo(writes.map((w) => ({ path: w.path, oid: w.bytes === null ? null : ids.get(w)!, mode: w.bytes === null ? null : w.mode }))));
    writeFileSync(files.index, seed);
  } catch {
    void clean();
    return null;
  }
  // One process started from this one (a fork of a large daemon blocks it ~5 ms): fast-import in the shell's
  // background, its id printed for the crash report's clean-up (writeBlobs), the tree meanwhile.
  const index = `GIT_INDEX_FILE=${shellArg(files.index)}`;
  const script = [
    `${gitCommand(FAST_IMPORT)} <${shellArg(files.blobs)} >${shellArg(files.ids)} 2>${shellArg(files.errors)} & p=$!`,
    `t=$(${index} ${gitCommand(['update-index', '-z', '--index-info'])} <${shellArg(files.entries)} && ${index} ${gitCommand(['write-tree', '--missing-ok'])})`,
    'w=$?',
    'wait "$p"; f=$?',
    `printf '%s %s %s %s\\n' "$p" "$f" "$w" "$t"`,
  ].join('\n');
  const running = gitShell(script, { cwd: repo.root });
  return (async () => {
    try {
      const answer = /^(\d+) (\d+) (\d+) ([0-9a-f]*)\n$/.exec((await running).stdout);
      if (!answer) return await treeWithEntries(repo, scratchDir, base, await blobEntries(repo, writes), baseTree);
      const [, pid, status, treeStatus, tree] = answer;
      const [stdout, stderr] = await Promise.all([readFile(files.ids, 'utf8').catch(() => ''), readFile(files.errors, 'utf8').catch(() => '')]);
      const answered = await fastImportIds(repo, { exitCode: Number(status), stdout, stderr, pid: Number(pid) }, blobs.length);
      if (treeStatus === '0' && tree && answered.every((id, i) => id === expected[i])) return tree;
      const byWrite = new Map(writes.flatMap((w) => (w.bytes === null ? [] : [w])).map((w, i) => [w, answered[i]!]));
      const entries = writes.map((w): PathEntry => ({ path: w.path, oid: w.bytes === null ? null : byWrite.get(w)!, mode: w.bytes === null ? null : w.mode }));
      return await treeWithEntries(repo, scratchDir, base, entries, baseTree);
    } finally {
      await clean();
    }
  })();
}

/** The plain road's entries when the shell gave no answer at all: the blobs written by writeBlobs. */
async function blobEntries(repo: Repo, writes: readonly TreeWrite[]): Promise<PathEntry[]> {
  const written = writes.filter((w) => w.bytes !== null);
  const oids = await writeBlobs(repo, written.map((w) => w.bytes!));
  const oidOf = new Map(written.map((w, i) => [w, oids[i]!]));
  return writes.map((w) => ({ path: w.path, oid: w.bytes === null ? null : oidOf.get(w)!, mode: w.bytes === null ? null : w.mode }));
}
