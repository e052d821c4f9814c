// Whole-file changes in the PatchSet IR: files a change creates or deletes, merged with the anchored edits and moves.
import { TugError } from './errors.js';
import type { FileChange, PatchSet, SourceFile } from './patchset.js';

export interface FileCreate {
  path: string;
  bytes: Uint8Array;
  /** Git mode of the new file (default 100644). */
  mode?: string;
}

/**
 * Adds creations and deletions to a PatchSet. A path may be touched once: editing, moving, creating
 * and deleting the same file in one change would make the result depend on an order nobody stated.
 */
export function withFileOperations(patch: PatchSet, creates: readonly FileCreate[], deletes: readonly SourceFile[]): PatchSet {
  const touched = new Set<string>();
  for (const file of patch.files) {
    touched.add(file.path);
    if (file.newPath) touched.add(file.newPath);
  }
  const claim = (path: string) => {
    if (touched.has(path)) {
      throw new TugError('ConflictingEdits', `${path} is changed twice in one change`, { details: { path, reason: 'a file may be created, deleted, moved or edited once per change' } });
    }
    touched.add(path);
  };
  const added: FileChange[] = creates.map((c) => {
    claim(c.path);
    return { path: c.path, status: 'added', mode: c.mode ?? '100644', oldOid: null, before: new Uint8Array(), after: c.bytes, edits: [] };
  });
  const deleted: FileChange[] = deletes.map((d) => {
    claim(d.path);
    return { path: d.path, status: 'deleted', mode: d.mode, oldOid: d.oid, before: d.bytes, after: new Uint8Array(), edits: [] };
  });
  const files = [...patch.files, ...added, ...deleted].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ...patch, files };
}

/** The paths a PatchSet creates and deletes, for the JSON response. */
export function fileOperationsOf(patch: PatchSet): { files_created?: string[]; files_deleted?: string[] } {
  const created = patch.files.filter((f) => f.status === 'added').map((f) => f.path);
  const deleted = patch.files.filter((f) => f.status === 'deleted').map((f) => f.path);
  return { ...(created.length > 0 ? { files_created: created } : {}), ...(deleted.length > 0 ? { files_deleted: deleted } : {}) };
}
