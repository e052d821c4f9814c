// Loads the files an operation edits from the snapshot tree, refusing what tug cannot edit as text.
import { TugError } from '../../core/errors.js';
import type { SourceFile } from '../../core/patchset.js';
import { decodeText } from '../../core/text.js';
import { readBlobs } from '../../git/objects.js';
import { listTreePaths } from '../../git/snapshot.js';
import type { Repo } from '../../git/repo.js';

/** `allowBinary`: for moves and deletions, which never look inside the file. */
export async function loadSourceFiles(repo: Repo, tree: string, paths: readonly string[], options: { allowBinary?: boolean } = {}): Promise<Map<string, SourceFile>> {
  const wanted = [...new Set(paths)].sort();
  const entries = wanted.length === 0 ? [] : await listTreePaths(repo, tree, wanted);
  const byPath = new Map(entries.map((e) => [e.path, e]));
  for (const file of wanted) {
    const entry = byPath.get(file);
    if (!entry) throw new TugError('FileNotFound', `${file} is not in the workspace (or is ignored by git)`, { details: { path: file } });
    if (entry.mode === '120000') throw unsupported(file, 'symlink');
    if (entry.type === 'tree') throw new TugError('InvalidArgument', `${file} is a directory`, { details: { argument: 'path', path: file, reason: 'is a directory' } });
    if (entry.type !== 'blob') throw unsupported(file, entry.type === 'commit' ? 'submodule' : entry.type);
  }
  const blobs = await readBlobs(repo, wanted.map((f) => byPath.get(f)!.oid));
  const files = new Map<string, SourceFile>();
  for (const file of wanted) {
    const entry = byPath.get(file)!;
    const bytes = blobs.get(entry.oid);
    if (!bytes) throw new TugError('InternalError', `blob ${entry.oid} of ${file} is missing`, { details: { path: file } });
    const text = decodeText(bytes);
    if (!text.ok && !options.allowBinary) throw unsupported(file, text.reason);
    files.set(file, { path: file, bytes, oid: entry.oid, mode: entry.mode });
  }
  return files;
}

function unsupported(path: string, reason: string): TugError {
  return new TugError('UnsupportedFile', `${path} cannot be edited as text (${reason})`, { details: { path, reason } });
}
