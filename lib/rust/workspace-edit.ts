// Turns rust-analyzer's WorkspaceEdit into tug's edit requests: UTF-16 ranges become byte spans anchored by the old text.
import type { Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { TugError } from '../core/errors.js';
import type { EditRequest, FileMove } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts } from '../core/text.js';
import { offsetOfLspPosition, type PositionEncoding } from './positions.js';
import { snippetText } from './snippets.js';

/** rust-analyzer's SnippetTextEdit (experimental snippetTextEdit): a TextEdit whose newText may be a snippet. */
type MaybeSnippetEdit = TextEdit & { insertTextFormat?: number };
const SNIPPET_FORMAT = 2;

/** Where a URI points: a workspace file, or somewhere tug must not edit (and why). */
export type Located = { path: string } | { skip: 'outside-workspace' | 'target-dir'; where: string };

export interface EditSources {
  encoding: PositionEncoding;
  locate(uri: string): Located;
  /** Snapshot bytes of a workspace file; undefined when the snapshot has no such file. */
  bytes(path: string): Uint8Array | undefined;
  /** Workspace files under a directory, for module folders that move. */
  filesUnder(dir: string): string[];
}

export interface ConvertedEdit {
  edits: EditRequest[];
  moves: FileMove[];
  /** Files the edit creates (an assist that moves code to a new module file), with their whole text. */
  creates: Array<{ path: string; text: string }>;
  warnings: WarningJSON[];
}

const decoder = new TextDecoder();

export function convertWorkspaceEdit(edit: WorkspaceEdit, sources: EditSources): ConvertedEdit {
  const edits: EditRequest[] = [];
  const moves: FileMove[] = [];
  const skipped = new Map<string, { reason: string; edits: number }>();
  const skip = (where: string, reason: string, count: number) => {
    const entry = skipped.get(where) ?? { reason, edits: 0 };
    entry.edits += count;
    skipped.set(where, entry);
  };
  const created = new Map<string, MaybeSnippetEdit[]>();
  const textEdits = (uri: string, list: readonly MaybeSnippetEdit[]) => {
    const located = sources.locate(uri);
    if ('skip' in located) return skip(located.where, located.skip, list.length);
    const fresh = created.get(located.path);
    if (fresh) return void fresh.push(...list);
    const bytes = sources.bytes(located.path);
    if (!bytes) throw new TugError('InternalError', `rust-analyzer edited ${located.path}, which is not in the snapshot`, { details: { path: located.path } });
    const starts = lineStarts(bytes);
    for (const change of list) edits.push(toRequest(located.path, bytes, starts, change.range, plainText(change), sources.encoding));
  };

  for (const [uri, list] of Object.entries(edit.changes ?? {})) textEdits(uri, list);
  for (const change of edit.documentChanges ?? []) {
    if ('textDocument' in change) {
      textEdits(change.textDocument.uri, change.edits as TextEdit[]);
      continue;
    }
    if (change.kind === 'create') {
      const target = sources.locate(change.uri);
      if ('skip' in target || sources.bytes(target.path)) {
        throw new TugError('UnsupportedOperation', `rust-analyzer wants to create ${change.uri}, which exists or is outside the workspace`, { details: { operation: 'assist', reason: 'create file' } });
      }
      created.set(target.path, []);
      continue;
    }
    if (change.kind !== 'rename') {
      throw new TugError('UnsupportedOperation', `rust-analyzer asked to ${change.kind} a file during a rename`, { details: { operation: 'rename-symbol', reason: `${change.kind} file` } });
    }
    const from = sources.locate(change.oldUri);
    const to = sources.locate(change.newUri);
    if ('skip' in from || 'skip' in to) {
      throw new TugError('UnsupportedOperation', `rust-analyzer wants to move ${change.oldUri} to ${change.newUri}, outside the workspace`, {
        details: { operation: 'rename-symbol', reason: 'file move outside the workspace' },
      });
    }
    if (sources.bytes(from.path)) moves.push({ from: from.path, to: to.path });
    else for (const file of sources.filesUnder(from.path)) moves.push({ from: file, to: to.path + file.slice(from.path.length) });
  }

  const warnings: WarningJSON[] = [...skipped.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([where, { reason, edits: count }]) => ({
      code: reason === 'target-dir' ? 'SkippedGeneratedFile' : 'SkippedOutsideWorkspace',
      message: `${count} edit${count === 1 ? '' : 's'} in ${where} left alone (${reason === 'target-dir' ? 'build output under target/' : 'outside the workspace'})`,
      details: { file: where, edits: count },
    }));
  const creates = [...created].map(([file, list]) => ({ path: file, text: textOfNewFile(list) }));
  return { edits, moves, creates, warnings };
}

function plainText(edit: MaybeSnippetEdit): string {
  return edit.insertTextFormat === SNIPPET_FORMAT ? snippetText(edit.newText) : edit.newText;
}

/** A created file starts empty: its edits insert at line 0 (rust-analyzer sends one); they apply in order of position. */
function textOfNewFile(list: readonly MaybeSnippetEdit[]): string {
  let text = '';
  const sorted = [...list].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  for (const edit of sorted) {
    if (edit.range.start.line !== 0 || edit.range.start.character !== 0 || edit.range.end.line !== 0 || edit.range.end.character !== 0) {
      throw new TugError('UnsupportedOperation', 'rust-analyzer edits a file it creates at a position other than its start', { details: { operation: 'assist', reason: 'create file' } });
    }
    text += plainText(edit);
  }
  return text;
}

function toRequest(file: string, bytes: Uint8Array, starts: number[], range: Range, newText: string, encoding: PositionEncoding): EditRequest {
  const start = offsetOfLspPosition(bytes, range.start, encoding, starts);
  const end = offsetOfLspPosition(bytes, range.end, encoding, starts);
  return { file, span: { start, end }, old_text: decoder.decode(bytes.subarray(start, end)), new_text: newText };
}
