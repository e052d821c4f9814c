// rust-analyzer's refactoring assists (extract variable, inline, …) as edit plans: ask for the code action at a range, resolve it, convert its WorkspaceEdit.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CodeAction } from 'vscode-languageserver-protocol';
import { TugError } from '../core/errors.js';
import type { EditRequest, FileMove } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, offsetOf } from '../core/text.js';
import { readBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import { listTreePaths } from '../git/snapshot.js';
import { requireRustAnalyzer } from './discovery.js';
import { assertRustIdentifier } from './identifiers.js';
import { lspPositionOfOffset } from './positions.js';
import { cargoRootOf } from './rename-plan.js';
import { withRustAnalyzer } from './servers.js';
import { convertWorkspaceEdit } from './workspace-edit.js';

export interface AssistInput {
  repo: Repo;
  session: { dir: string; paths: { workers: string } };
  tree: string;
  commit: string;
  operation: string;
  /** rust-analyzer assist ids that implement the operation, tried in order. */
  assists: readonly string[];
  file: string;
  /** 1-based, end exclusive; a point when start equals end. */
  start: { line: number; col: number };
  end: { line: number; col: number };
  /** The whole file instead of start/end (organize-imports). */
  wholeFile?: boolean | undefined;
  /** The name of what the assist creates (a variable, a function), replacing the one rust-analyzer picked. */
  name?: string | undefined;
  rustAnalyzer?: string | undefined;
  noWait?: boolean | undefined;
}

const decoder = new TextDecoder();

export interface AssistPlan {
  title: string;
  edits: EditRequest[];
  moves: FileMove[];
  warnings: WarningJSON[];
}

export async function planRustAssist(input: AssistInput): Promise<AssistPlan> {
  const entries = await listTreePaths(input.repo, input.tree);
  const cargoRoot = cargoRootOf(entries, input.file);
  const rustEntries = entries.filter((e) => e.type === 'blob' && e.path.endsWith('.rs') && (cargoRoot === '' || e.path.startsWith(`${cargoRoot}/`)));
  const blobs = await readBlobs(input.repo, rustEntries.map((e) => e.oid));
  const bytesOf = new Map(rustEntries.map((e) => [e.path, blobs.get(e.oid)!]));
  const bytes = bytesOf.get(input.file);
  if (!bytes) throw new TugError('FileNotFound', `${input.file} is not a Rust file of the workspace`, { details: { path: input.file } });
  const starts = lineStarts(bytes);
  const from = input.wholeFile ? 0 : offsetOf(bytes, starts, input.start.line, input.start.col);
  const to = input.wholeFile ? bytes.length : offsetOf(bytes, starts, input.end.line, input.end.col);
  const where = `${input.file}:${input.start.line}:${input.start.col}`;
  if (from === null || to === null || to < from) throw new TugError('InvalidPosition', `${where} is not a range inside the file`, { details: { location: where, file_lines: starts.length }, location: { file: input.file, line: input.start.line, col: input.start.col } });
  if (input.name !== undefined) assertRustIdentifier(input.name, undefined);
  const binary = (await requireRustAnalyzer(input.rustAnalyzer)).path;
  return withRustAnalyzer({ repo: input.repo, session: input.session, commit: input.commit, cargoRoot, binary, noWait: input.noWait }, async (server, root) => {
    const treeRoot = cargoRoot === '' ? root : root.slice(0, -cargoRoot.length - 1);
    const textDocument = { uri: pathToFileURL(path.join(treeRoot, input.file)).href };
    const range = { start: lspPositionOfOffset(bytes, from, server.encoding, starts), end: lspPositionOfOffset(bytes, to, server.encoding, starts) };
    const offered = ((await server.request<Array<CodeAction | { command: string }> | null>('textDocument/codeAction', { textDocument, range, context: { diagnostics: [] } })) ?? []).filter(
      (a): a is CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string'),
    );
    const idOf = (a: CodeAction) => String((a.data as { id?: string } | undefined)?.id ?? '').split(':')[0]!;
    const chosen = input.assists.map((id) => offered.find((a) => idOf(a) === id)).find((a) => a !== undefined);
    if (!chosen) {
      const names = [...new Set(offered.map(idOf).filter((id) => id !== ''))].sort();
      throw new TugError('UnsupportedByAdapter', `rust-analyzer offers no ${input.assists.join(' or ')} at ${where}`, {
        details: { operation: input.operation, wanted: [...input.assists], offered: names, location: where },
        location: { file: input.file, line: input.start.line, col: input.start.col },
      });
    }
    const resolved = chosen.edit ? chosen : await server.request<CodeAction>('codeAction/resolve', chosen);
    if (!resolved.edit) throw new TugError('InternalError', `rust-analyzer resolved ${idOf(chosen)} without an edit`, { details: { assist: idOf(chosen) } });
    const fileOf = (uri: string) => path.relative(treeRoot, fileURLToPath(uri)).split(path.sep).join('/');
    const converted = convertWorkspaceEdit(resolved.edit, {
      encoding: server.encoding,
      locate: (uri) => {
        const file = fileOf(uri);
        return file.startsWith('..') ? { skip: 'outside-workspace', where: fileURLToPath(uri) } : { path: file };
      },
      bytes: (file) => bytesOf.get(file),
      filesUnder: (dir) => [...bytesOf.keys()].filter((f) => f.startsWith(`${dir}/`)).sort(),
    });
    if (converted.edits.length === 0) throw new TugError('UnsupportedByAdapter', `${idOf(chosen)} at ${where} changes nothing`, { details: { operation: input.operation, offered: [idOf(chosen)], location: where } });
    const kind = idOf(chosen) === 'extract_function' ? 'function' : 'variable';
    const edits = input.name === undefined ? converted.edits : nameCreated(converted.edits, bytesOf, input.file, input.name, kind);
    return { title: resolved.title, edits, moves: converted.moves, warnings: converted.warnings };
  });
}

/**
 * rust-analyzer names what it creates itself (`var_name`, `fun_name`, or a name taken from the expression). The edits are
 * applied to the file, the created name is found after a `let`/`fn` the edits introduced, and it is replaced by `name`
 * in the changed stretch where it is the new binding: not after `.` or `::`, and for a variable not before `(` or `!`.
 * The result is one edit over that stretch; cargo check in the sandbox confirms it.
 */
export function nameCreated(edits: EditRequest[], bytesOf: ReadonlyMap<string, Uint8Array>, file: string, name: string, kind: 'variable' | 'function'): EditRequest[] {
  const own = edits.filter((e) => e.file === file).sort((a, b) => a.span!.start - b.span!.start);
  const original = bytesOf.get(file);
  if (own.length === 0 || !original) return edits;
  const from = own[0]!.span!.start;
  const to = Math.max(...own.map((e) => e.span!.end));
  let window = '';
  let at = from;
  for (const e of own) {
    window += decoder.decode(original.subarray(at, e.span!.start)) + e.new_text;
    at = e.span!.end;
  }
  window += decoder.decode(original.subarray(at, to));
  const before = decoder.decode(original.subarray(from, to));
  const binder = kind === 'variable' ? /\blet\s+(?:mut\s+)?([\p{XID_Start}_][\p{XID_Continue}]*)/gu : /\bfn\s+([\p{XID_Start}_][\p{XID_Continue}]*)/gu;
  const count = (text: string, word: string) => [...text.matchAll(binder)].filter((m) => m[1] === word).length;
  const created = [...window.matchAll(binder)].map((m) => m[1]!).find((word) => count(window, word) > count(before, word));
  if (!created) throw new TugError('UnsupportedByAdapter', `could not find the ${kind} rust-analyzer created, so --name cannot be applied`, { details: { operation: `extract-${kind}`, offered: [] } });
  const use = kind === 'variable' ? `(?<![\\p{XID_Continue}.:])${created}(?![\\p{XID_Continue}(!]|::)` : `(?<![\\p{XID_Continue}.:])${created}(?=\\s*\\()`;
  const renamed = window.replace(new RegExp(use, 'gu'), name);
  return [...edits.filter((e) => e.file !== file), { file, span: { start: from, end: to }, old_text: before, new_text: renamed }];
}
