// The read tools' work: files come from the snapshot tree (what edits are computed against, .gitignore honoured) or from a named ref.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../../core/errors.js';
import { assertFileSize } from './limits.js';
import { decodeText } from '../../core/text.js';
import { textStyle } from '../../core/text-edits.js';
import { readBlobs } from '../../git/objects.js';
import { treeOf } from '../../git/refs.js';
import { resolveCommit, type Repo } from '../../git/repo.js';
import { entriesAt, listDirectoryEntries, type TreeEntry } from '../../git/snapshot.js';
import { resolveUserPath } from '../../workspace/paths.js';
import { takeSnapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';

/** The tree a read looks at: a ref's (branch, tag, commit), else the workspace snapshot. */
export async function readTree(ws: Workspace, ref: string | undefined): Promise<string> {
  if (ref === undefined) return (await takeSnapshot(ws)).tree;
  const commit = /^-/.test(ref) ? null : await resolveCommit(ws.repo, ref);
  if (!commit) throw new TugError('InvalidArgument', `ref ${JSON.stringify(ref)} does not name a commit`, { details: { argument: 'ref', reason: 'unknown ref' } });
  return treeOf(ws.repo, commit);
}

/** A directory argument: empty or '.' is the workspace itself. */
export async function resolveDir(repo: Repo, input: string | undefined, argument = 'path'): Promise<string> {
  if (input === undefined || input === '' || input === '.' || input === './') return repo.prefix;
  return resolveUserPath(repo, input, argument);
}

/** Paths are reported relative to the workspace, so they can be passed straight back to the tools. */
export function workspacePath(repo: Repo, relative: string): string {
  return repo.prefix && relative.startsWith(`${repo.prefix}/`) ? relative.slice(repo.prefix.length + 1) : relative;
}

export async function requireEntry(ws: Workspace, tree: string, file: string, shown: string): Promise<TreeEntry> {
  const entry = (await entriesAt(ws.repo, tree, [file])).get(file);
  if (!entry) {
    throw new TugError('FileNotFound', `${shown} is not in the workspace (files .gitignore excludes are not readable either)`, { details: { path: shown } });
  }
  return entry;
}

export async function readTextFile(ws: Workspace, tree: string, file: string, shown: string): Promise<{ text: string; size: number }> {
  const entry = await requireEntry(ws, tree, file, shown);
  if (entry.type === 'tree') throw new TugError('InvalidArgument', `${shown} is a directory; use list_directory or list_files`, { details: { argument: 'path', path: shown, reason: 'is a directory' } });
  if (entry.mode === '120000') throw new TugError('UnsupportedFile', `${shown} is a symbolic link; read the file it points to`, { details: { path: shown, reason: 'symlink' } });
  if (entry.type !== 'blob') throw new TugError('UnsupportedFile', `${shown} is a submodule`, { details: { path: shown, reason: 'submodule' } });
  assertFileSize(shown, entry.size);
  const bytes = (await readBlobs(ws.repo, [entry.oid])).get(entry.oid)!;
  const text = decodeText(bytes);
  if (!text.ok) {
    const what = text.reason === 'binary' ? 'a binary file' : 'not valid UTF-8';
    throw new TugError('UnsupportedFile', `${shown} is ${what}; read_file returns text only`, { details: { path: shown, reason: text.reason, size: bytes.length } });
  }
  return { text: text.text, size: bytes.length };
}

/** Selected text is cut at this many bytes (seed 001: 100 KB); `next_line_start` says where to continue. */
export const READ_LIMIT = 100_000;

export interface ReadRequest {
  path: string;
  line_start?: number | undefined;
  line_end?: number | undefined;
  line_numbers?: boolean | undefined;
  ref?: string | undefined;
}

export async function readFileTool(ws: Workspace, input: ReadRequest) {
  const tree = await readTree(ws, input.ref);
  const file = await resolveUserPath(ws.repo, input.path, 'path');
  const shown = workspacePath(ws.repo, file);
  const { text, size } = await readTextFile(ws, tree, file, shown);
  const style = textStyle(text);
  const body = style.bom ? text.slice(1) : text;
  const lines = body === '' ? [] : body.replace(/\r?\n$/, '').split(/\r?\n/);
  const first = input.line_start ?? 1;
  if (input.line_end !== undefined && input.line_end < first) {
    throw new TugError('InvalidArgument', `line_end ${input.line_end} is before line_start ${first}`, { details: { argument: 'line_end', reason: 'before line_start' } });
  }
  if (first > Math.max(lines.length, 1)) {
    throw new TugError('InvalidPosition', `line_start ${first} is past the end of ${shown} (${lines.length} lines)`, { details: { path: shown, total_lines: lines.length } });
  }
  // Past the end reads to the end (seed 001 gap 14).
  const last = Math.min(input.line_end ?? lines.length, lines.length);
  const numbered = input.line_numbers ?? true;
  const out: string[] = [];
  let bytes = 0;
  let end = first - 1;
  for (let n = first; n <= last; n++) {
    const line = numbered ? `${String(n).padStart(6)}\t${lines[n - 1]}` : lines[n - 1]!;
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > READ_LIMIT && out.length > 0) break;
    out.push(line);
    end = n;
  }
  const truncated = end < last;
  return {
    path: shown,
    content: out.length === 0 ? '' : `${out.join('\n')}\n`,
    line_start: first,
    line_end: end,
    total_lines: lines.length,
    size,
    truncated,
    ...(truncated ? { next_line_start: end + 1 } : {}),
    line_ending: style.eol === '\r\n' ? ('crlf' as const) : ('lf' as const),
    bom: style.bom,
    snapshot_id: tree,
  };
}

export async function listDirectoryTool(ws: Workspace, input: { path?: string | undefined; ref?: string | undefined }) {
  const tree = await readTree(ws, input.ref);
  const dir = await resolveDir(ws.repo, input.path);
  if (dir !== '') {
    const entry = await requireEntry(ws, tree, dir, workspacePath(ws.repo, dir));
    if (entry.type !== 'tree') throw new TugError('InvalidArgument', `${input.path} is a file; use read_file`, { details: { argument: 'path', reason: 'is a file' } });
  }
  const entries = await listDirectoryEntries(ws.repo, tree, dir);
  const out = [];
  for (const entry of entries.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const type = entry.type === 'tree' ? 'directory' : entry.type === 'commit' ? 'submodule' : entry.mode === '120000' ? 'symlink' : 'file';
    const onDisk = input.ref === undefined ? await lstat(path.join(ws.repo.root, entry.path)).catch(() => null) : null;
    out.push({
      name: entry.path.slice(entry.path.lastIndexOf('/') + 1),
      path: workspacePath(ws.repo, entry.path),
      type,
      ...(type === 'file' ? { size: entry.size, executable: entry.mode === '100755' } : {}),
      mtime: onDisk ? onDisk.mtime.toISOString() : null,
    });
  }
  return { path: workspacePath(ws.repo, dir) || '.', entries: out, snapshot_id: tree };
}
