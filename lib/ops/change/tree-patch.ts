// The difference of two trees as a PatchSet: how replay turns a 3-way merged tree (or a chain of steps) into a change
// the road can verify, commit and apply like any other.
import { TugError } from '../../core/errors.js';
import { withFileOperations, type FileCreate } from '../../core/file-ops.js';
import { buildPatchSet, type PatchSet, type SourceFile } from '../../core/patchset.js';
import { decodeText } from '../../core/text.js';
import { rewriteEdits } from '../../core/text-edits.js';
import { readBlobs } from '../../git/objects.js';
import { treeChanges } from '../../git/results.js';
import type { Repo } from '../../git/repo.js';
import { loadSourceFiles } from './source-files.js';

export async function patchBetween(repo: Repo, from: string, to: string): Promise<PatchSet> {
  const changes = await treeChanges(repo, from, to);
  // A moved file is a deletion and a creation here: the edits inside it are whatever the merge made.
  const edited = changes.filter((c) => c.status === 'modified').map((c) => c.path);
  const removed = changes.flatMap((c) => (c.status === 'deleted' ? [c.path] : c.status === 'renamed' ? [c.oldPath!] : []));
  const files = await loadSourceFiles(repo, from, [...edited, ...removed], { allowBinary: true });
  const newOids = changes.flatMap((c) => (c.newOid && c.status !== 'deleted' ? [c.newOid] : []));
  const blobs = await readBlobs(repo, newOids);
  const edits = edited.flatMap((p) => {
    const change = changes.find((c) => c.path === p)!;
    const before = decodeText(files.get(p)!.bytes);
    const after = decodeText(blobs.get(change.newOid!)!);
    if (!before.ok || !after.ok) {
      throw new TugError('UnsupportedFile', `${p} changed on both sides and is not text (${before.ok ? (after as { reason: string }).reason : before.reason}); replay it by hand`, { details: { path: p, reason: 'binary' } });
    }
    return rewriteEdits(p, before.text, after.text);
  });
  const creates: FileCreate[] = changes
    .filter((c) => c.status === 'added' || c.status === 'renamed')
    .map((c) => ({ path: c.path, bytes: blobs.get(c.newOid!)!, ...(c.newMode ? { mode: c.newMode } : {}) }));
  const deletes: SourceFile[] = removed.map((p) => files.get(p)!);
  const editedFiles = new Map([...files].filter(([p]) => edited.includes(p)));
  return withFileOperations(buildPatchSet(edits, editedFiles), creates, deletes);
}
