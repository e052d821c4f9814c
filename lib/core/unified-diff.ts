// Renders a PatchSet as a git-compatible unified diff (applies with `git apply`), in path order.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import type { FileChange } from './patchset.js';

export function unifiedDiff(files: readonly FileChange[]): string {
  return [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map(fileDiff)
    .join('');
}

function fileDiff(change: FileChange): string {
  const before = Buffer.from(change.before).toString('utf8');
  const after = Buffer.from(change.after).toString('utf8');
  const patch = structuredPatch(`a/${change.path}`, `b/${change.path}`, before, after, undefined, undefined, { context: 3 });
  return `diff --git a/${change.path} b/${change.path}\n${formatPatch(patch, FILE_HEADERS_ONLY)}`;
}
