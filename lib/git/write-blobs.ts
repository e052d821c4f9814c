// Writes a change's new blobs with one `git fast-import`, and makes its failures clean: a full disk is DiskFull and
// nothing fast-import leaves behind on dying (a crash report, a half-written pack) stays in the user's .git.
import { realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { diskFullError, TugError } from '../core/errors.js';
import type { Repo } from './repo.js';
import { git, type GitResult } from './run-git.js';

const COMMAND = 'git fast-import --quiet --done';

/**
 * Writes many blobs with one git process: `fast-import` takes them all on stdin and answers each id (`get-mark`), so
 * nothing is written twice. Git stores a small batch as loose objects and a large one (`fastimport.unpackLimit`, 100
 * by default) as one pack: a 500-file rename made 500 scratch files and 500 loose objects before, ~5x the time.
 * Written as they are, without filters, like writeBlob. Ids in the order given.
 */
export async function writeBlobs(repo: Repo, contents: readonly Uint8Array[]): Promise<string[]> {
  if (contents.length === 0) return [];
  return fastImportIds(repo, await git(FAST_IMPORT, { cwd: repo.root, input: fastImportInput(contents), allowFailure: true }), contents.length);
}

/** fast-import's arguments, for a caller that starts it itself (result-tree.ts). */
export const FAST_IMPORT = ['fast-import', '--quiet', '--done'];

/** What fast-import reads to write `contents` and answer their ids in order. */
export function fastImportInput(contents: readonly Uint8Array[]): Buffer {
  const parts: Uint8Array[] = [];
  contents.forEach((bytes, i) => parts.push(Buffer.from(`blob\nmark :${i + 1}\ndata ${bytes.byteLength}\n`), bytes, Buffer.from('\n')));
  parts.push(Buffer.from(contents.map((_, i) => `get-mark :${i + 1}\n`).join('')));
  parts.push(Buffer.from('done\n'));
  return Buffer.concat(parts);
}

/** The ids a fast-import run answered for `count` blobs; on failure, what it left behind is removed and it throws. */
export async function fastImportIds(repo: Repo, result: GitResult, count: number): Promise<string[]> {
  const ids = result.stdout.replace(/\n$/, '').split('\n');
  if (result.exitCode === 0 && ids.length === count && ids.every((id) => /^[0-9a-f]{40,64}$/.test(id))) return ids;
  await removeLeftovers(repo, result.stderr, result.pid);
  throw fastImportError(result.exitCode, result.stderr);
}

/**
 * The TugError for a failed fast-import. Its out-of-space messages differ from other git commands': a write that
 * stores nothing ends in "write error. Out of diskspace" (no errno), a short write says so; both are the DiskFull that
 * hash-object's "No space left on device" gives, as are ENOSPC and EDQUOT themselves.
 */
export function fastImportError(exitCode: number, stderr: string): TugError {
  const fatal = stderr.split('\n').find((line) => line.startsWith('fatal: ')) ?? stderr.trim().split('\n')[0] ?? '';
  const full = diskFullError(stderr, { command: COMMAND });
  if (full) return full;
  if (/Out of diskspace|short write/i.test(stderr)) {
    return new TugError('DiskFull', `the disk is full (ENOSPC): ${fatal.replace(/^fatal: /, '')}`, { details: { reason: 'ENOSPC', command: COMMAND } });
  }
  const why = exitCode === 0 ? 'git fast-import did not answer an id for every blob' : `git fast-import failed: ${fatal.replace(/^fatal: /, '') || `exit ${exitCode}`}`;
  return new TugError('InternalError', why, { details: { command: COMMAND, exit_code: exitCode, stderr: stderr.slice(-4000) } });
}

/** Whether `file` is directly inside `dir`, both resolved through symlinks (a path git printed may be relative). */
async function directlyIn(file: string, dir: string): Promise<boolean> {
  const real = async (p: string) => realpath(p).catch(() => path.resolve(p));
  return (await real(path.dirname(file))) === (await real(dir));
}

/**
 * Removes what a dying fast-import leaves: its crash report (`fast_import_crash_<pid>` in the git dir, named by its
 * process id and by the message it prints) and the temporary pack it was writing (named in its write error). Only
 * files of exactly those names and places, so nothing else of the repository (another git's temporary pack) goes.
 */
async function removeLeftovers(repo: Repo, stderr: string, pid: number | undefined): Promise<void> {
  const named = [...stderr.matchAll(/(?:'([^'\n]+)'|crash report to (\S+))/g)].map((m) => path.resolve(repo.root, m[1] ?? m[2]!));
  const crashDirs = [repo.gitDir, repo.commonDir];
  const candidates = pid === undefined ? named : [...named, ...crashDirs.map((dir) => path.join(dir, `fast_import_crash_${pid}`))];
  for (const file of new Set(candidates)) {
    const name = path.basename(file);
    const crash = /^fast_import_crash_\d+$/.test(name) && (await Promise.all(crashDirs.map((dir) => directlyIn(file, dir)))).some(Boolean);
    const pack = /^tmp_(pack|idx)_[A-Za-z0-9]+$/.test(name) && (await directlyIn(file, path.join(repo.commonDir, 'objects', 'pack')));
    if (crash || pack) await rm(file, { force: true });
  }
}
