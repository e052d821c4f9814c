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
  const target = change.newPath ?? change.path;
  const header = `diff --git a/${change.path} b/${target}\n${change.newPath ? `rename from ${change.path}\nrename to ${target}\n` : ''}`;
  const before = Buffer.from(change.before).toString('utf8');
  const after = Buffer.from(change.after).toString('utf8');
  if (before === after) return header;
  const patch = structuredPatch(`a/${change.path}`, `b/${target}`, before, after, undefined, undefined, { context: 3 });
  return `${header}${formatPatch(patch, FILE_HEADERS_ONLY)}`;
}
