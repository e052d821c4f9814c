// list_files and grep_file: walk the snapshot tree (so .gitignore is honoured by git itself), filter by glob, search by regex.
import { RE2JS } from 're2js';
import { TugError } from '../../core/errors.js';
import { matchesGlob } from '../../core/glob.js';
import { decodeText } from '../../core/text.js';
import { readBlobs } from '../../git/objects.js';
import { listTree, type TreeEntry } from '../../git/snapshot.js';
import { readTree, requireEntry, resolveDir, workspacePath } from './reads.js';
import { FILE_SIZE_LIMIT, GREP_BYTES_LIMIT, grepTimeLimitMs, limitExceeded } from './limits.js';
import type { Workspace } from '../workspace/workspace.js';

export const LIST_LIMIT = 2000;
export const MATCH_LIMIT = 200;
const LINE_LIMIT = 500;

/** Files under `dir` (or the one file `dir` names); `recursive: false` keeps direct children only. */
async function filesUnder(ws: Workspace, tree: string, dir: string, recursive: boolean): Promise<TreeEntry[]> {
  if (dir !== '') {
    const entry = await requireEntry(ws, tree, dir, workspacePath(ws.repo, dir));
    if (entry.type === 'blob') return [entry];
  }
  const entries = await listTree(ws.repo, tree, dir === '' ? [] : [dir]);
  const depth = dir === '' ? 0 : dir.split('/').length;
  return entries.filter((e) => e.type === 'blob' && (recursive || e.path.split('/').length === depth + 1)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function relativeTo(dir: string, file: string): string {
  return dir === '' ? file : file === dir ? file.slice(file.lastIndexOf('/') + 1) : file.slice(dir.length + 1);
}

export async function listFilesTool(ws: Workspace, input: { path?: string | undefined; pattern?: string | undefined; recursive?: boolean | undefined; max_results?: number | undefined; ref?: string | undefined }) {
  const tree = await readTree(ws, input.ref);
  const dir = await resolveDir(ws.repo, input.path);
  const limit = input.max_results ?? LIST_LIMIT;
  const all = (await filesUnder(ws, tree, dir, input.recursive ?? true)).filter((e) => !input.pattern || matchesGlob(relativeTo(dir, e.path), input.pattern));
  const files = all.slice(0, limit).map((e) => ({ path: workspacePath(ws.repo, e.path), size: e.size }));
  return { path: workspacePath(ws.repo, dir) || '.', files, count: all.length, truncated: all.length > limit, snapshot_id: tree };
}

export interface GrepRequest {
  pattern: string;
  path?: string | undefined;
  include?: string | undefined;
  context?: number | undefined;
  case_insensitive?: boolean | undefined;
  max_matches?: number | undefined;
  ref?: string | undefined;
}

/**
 * RE2 syntax through re2js (a pure-JS port of RE2): matching takes time linear in the line, so no pattern can hang
 * grep_file the way a backtracking engine can (`(a+)+$` on a long line of a's).
 */
function compile(pattern: string, caseInsensitive: boolean): RE2JS {
  try {
    return RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    throw new TugError('InvalidArgument', `pattern is not a valid RE2 regular expression: ${(error as Error).message}`, { details: { argument: 'pattern', reason: 'invalid regex' } });
  }
}

function clip(line: string): string {
  return line.length <= LINE_LIMIT ? line : `${line.slice(0, LINE_LIMIT)}…`;
}

export async function grepFileTool(ws: Workspace, input: GrepRequest) {
  const regex = compile(input.pattern, input.case_insensitive ?? false);
  const tree = await readTree(ws, input.ref);
  const dir = await resolveDir(ws.repo, input.path);
  const context = input.context ?? 2;
  const limit = input.max_matches ?? MATCH_LIMIT;
  const candidates = (await filesUnder(ws, tree, dir, true)).filter((e) => e.mode !== '120000' && (!input.include || matchesGlob(relativeTo(dir, e.path), input.include)));
  // Files over the one-file limit are skipped like binaries; the total and the clock are budgets of the whole call.
  const searchable = candidates.filter((e) => e.size <= FILE_SIZE_LIMIT);
  const bytes = searchable.reduce((sum, e) => sum + e.size, 0);
  if (bytes > GREP_BYTES_LIMIT) {
    throw limitExceeded('grep_bytes', `grep_file would search ${bytes} bytes, over the ${GREP_BYTES_LIMIT}-byte limit; narrow path or include`, { bytes, max: GREP_BYTES_LIMIT });
  }
  const deadline = Date.now() + grepTimeLimitMs();
  const blobs = await readBlobs(ws.repo, searchable.map((e) => e.oid));
  const matches = [];
  let searched = 0;
  let matchedFiles = 0;
  let total = 0;
  for (const entry of searchable) {
    if (Date.now() > deadline) {
      throw limitExceeded('grep_time', `grep_file ran out of time after ${searched} of ${searchable.length} files; narrow path or include`, { files_searched: searched, max_ms: grepTimeLimitMs() });
    }
    const text = decodeText(blobs.get(entry.oid) ?? new Uint8Array());
    if (!text.ok) continue;
    searched += 1;
    const lines = text.text.replace(/^\uFEFF/, '').replace(/\r?\n$/, '').split(/\r?\n/);
    let found = false;
    for (const [i, line] of lines.entries()) {
      const hit = regex.matcher(line);
      if (!hit.find()) continue;
      found = true;
      total += 1;
      if (matches.length >= limit) continue;
      matches.push({
        path: workspacePath(ws.repo, entry.path),
        line: i + 1,
        column: Buffer.byteLength(line.slice(0, hit.start())) + 1,
        text: clip(line),
        before: lines.slice(Math.max(0, i - context), i).map(clip),
        after: lines.slice(i + 1, i + 1 + context).map(clip),
      });
    }
    if (found) matchedFiles += 1;
  }
  return { pattern: input.pattern, path: workspacePath(ws.repo, dir) || '.', matches, total_matches: total, files_searched: searched, files_matched: matchedFiles, truncated: total > matches.length, snapshot_id: tree };
}
