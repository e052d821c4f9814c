// Undo of a file that changed since the operation: take back only the operation's own hunks, as `git revert` does
// (a 3-way merge with the result as the base), so another change to the same file survives; overlapping lines conflict.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { git } from '../../git/run-git.js';

/**
 * The file as it is now with the operation's change reversed (result → base), or null when the two changes touch the
 * same or adjacent lines, or a side is not UTF-8 text. `scratch` is a directory tug may write (the session's).
 */
export async function revertOwnHunks(cwd: string, scratch: string, now: Uint8Array, result: Uint8Array, base: Uint8Array): Promise<Uint8Array | null> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for (const side of [now, result, base]) if (side.includes(0)) return null;
    for (const side of [now, result, base]) decoder.decode(side);
  } catch {
    return null;
  }
  await mkdir(scratch, { recursive: true });
  const dir = await mkdtemp(path.join(scratch, 'undo-merge-'));
  try {
    const [ours, ancestor, theirs] = ['current', 'result', 'snapshot'].map((name) => path.join(dir, name)) as [string, string, string];
    await Promise.all([writeFile(ours, now), writeFile(ancestor, result), writeFile(theirs, base)]);
    // merge-file writes the merge into `ours` and exits with the number of conflicts.
    const merge = await git(['merge-file', '-q', ours, ancestor, theirs], { cwd, allowFailure: true });
    if (merge.exitCode !== 0) return null;
    return new Uint8Array(await readFile(ours));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
