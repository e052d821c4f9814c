// move-symbol's new imports placed where the project's own sorting (ruff's I001 with its isort settings) puts them:
// the worker adds an import after the last one, which is rarely where isort wants it. A file whose imports were
// sorted before the move is sorted after it; a file that was not stays as the move left it (tug does not reorder
// imports nobody asked it to). A created module is sorted. Nothing is removed (F401 is not applied).
import type { EditRequest, SourceFile } from '../../core/patchset.js';
import { sameBytes } from '../../core/text.js';
import type { ImportSettings } from '../../python/import-settings.js';
import { changedPart, organizeItems } from '../organize-imports/engine.js';
import type { Workspace } from '../workspace/workspace.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const hasBom = (bytes: Uint8Array) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

function applyEdits(bytes: Uint8Array, edits: readonly EditRequest[]): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let at = 0;
  const spans = edits.map((edit) => ({ ...edit.span!, text: edit.new_text })).sort((a, b) => a.start - b.start || a.end - b.end);
  for (const span of spans) {
    parts.push(bytes.subarray(at, span.start), encoder.encode(span.text));
    at = span.end;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

export interface MoveResult {
  edits: EditRequest[];
  creates: { path: string; content: string }[];
}

/** The move's edits and new files with their imports sorted as the project sorts them (see the file comment). */
export async function sortAddedImports(ws: Workspace, python: string | undefined, settings: ImportSettings, result: MoveResult, sources: ReadonlyMap<string, SourceFile>): Promise<MoveResult> {
  const byFile = new Map<string, EditRequest[]>();
  for (const edit of result.edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
  const files = [...byFile.keys()].filter((file) => file.endsWith('.py') && sources.has(file) && byFile.get(file)!.every((e) => e.span)).sort();
  const befores = files.map((path) => ({ path, bytes: sources.get(path)!.bytes }));
  const afters = files.map((path, i) => ({ path, bytes: applyEdits(befores[i]!.bytes, byFile.get(path)!) }));
  const encoder = new TextEncoder();
  const created = result.creates.filter((c) => c.path.endsWith('.py')).map((c) => ({ path: c.path, bytes: encoder.encode(c.content) }));
  let sorted: Uint8Array[];
  try {
    // A byte order mark is no part of the program: sorted without it, put back after.
    const items = [...befores, ...afters, ...created];
    const marked = items.map((item) => hasBom(item.bytes));
    const organized = await organizeItems(ws, python, items.map((item, i) => ({ path: item.path, bytes: marked[i] ? item.bytes.subarray(3) : item.bytes })), settings, true);
    sorted = organized.map((bytes, i) => (marked[i] ? Buffer.concat([BOM, bytes]) : bytes));
  } catch {
    // A file ruff cannot read (it would not parse, say): verification reports the move's own result.
    return result;
  }
  const edits = result.edits.filter((edit) => {
    const index = files.indexOf(edit.file);
    return index < 0 || !sameBytes(sorted[index]!, befores[index]!.bytes);
  });
  files.forEach((file, i) => {
    const wasSorted = sameBytes(sorted[i]!, befores[i]!.bytes);
    const after = sorted[files.length + i]!;
    if (wasSorted && !sameBytes(after, befores[i]!.bytes)) edits.push(changedPart(file, befores[i]!.bytes, after));
  });
  const decoder = new TextDecoder();
  const sortedCreated = new Map(created.map((c, i) => [c.path, decoder.decode(sorted[2 * files.length + i]!)]));
  return { edits, creates: result.creates.map((c) => ({ path: c.path, content: sortedCreated.get(c.path) ?? c.content })) };
}
