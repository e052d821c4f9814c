// Renders a PatchSet as a git-compatible unified diff (applies with `git apply`), in path order.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { editedHunks, inPlaceHunks } from './line-diff.js';
import type { FileChange } from './patchset.js';
import { decodeText } from './text.js';

export function unifiedDiff(files: readonly FileChange[]): string {
  return [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map(fileDiff)
    .join('');
}

function fileDiff(change: FileChange): string {
  const target = change.newPath ?? change.path;
  let header = `diff --git a/${change.path} b/${target}\n`;
  if (change.newPath) header += `rename from ${change.path}\nrename to ${target}\n`;
  if (change.status === 'added') header += `new file mode ${change.mode}\n`;
  if (change.status === 'deleted') header += `deleted file mode ${change.mode}\n`;
  const oldName = change.status === 'added' ? '/dev/null' : `a/${change.path}`;
  const newName = change.status === 'deleted' ? '/dev/null' : `b/${target}`;
  const before = decodeText(change.before);
  const after = decodeText(change.after);
  if (!before.ok || !after.ok) return `${header}Binary files ${oldName} and ${newName} differ\n`;
  if (before.text === after.text) return header;
  const hunks = editedHunks(change);
  if (hunks !== null) return `${header}--- ${oldName}\n+++ ${newName}\n${hunks}`;
  const inPlace = inPlaceHunks(before.text, after.text);
  if (inPlace !== null) return `${header}--- ${oldName}\n+++ ${newName}\n${inPlace}`;
  const patch = structuredPatch(oldName, newName, before.text, after.text, undefined, undefined, { context: 3 });
  return `${header}${formatPatch(patch, FILE_HEADERS_ONLY)}`;
}
