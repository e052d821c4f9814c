// rust-analyzer's refactoring assists (extract variable, inline, …) as edit plans: ask for the code action at a range, resolve it, convert its WorkspaceEdit.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CodeAction, Location, WorkspaceEdit } from 'vscode-languageserver-protocol';
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
import { renameCreated } from './created-name.js';
import { repairExtracted } from './extract-repair.js';
import { checkExtractedSignature } from './extract-signature.js';
import { nameFieldLifetimes } from './extract-lifetimes.js';
import { refuseHeldForDrop } from './extract-drops.js';
import { refuseConditionalExtract } from './extract-variable-order.js';
import { ascribeInlinedCall, calleeSource, refuseEarlyExit, sameNames } from './inline-call.js';
import { parenthesizeInlined, suffixPastedLiterals, typeLiteralArguments } from './inline-params.js';
import type { RustAnalyzer } from './lsp-client.js';
import { withRustAnalyzer } from './servers.js';
import { convertWorkspaceEdit, type ConvertedEdit } from './workspace-edit.js';

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

/** The place an assist is asked for, with rust-analyzer ready and its offers there. */
export interface AssistSite {
  server: RustAnalyzer;
  where: string;
  uri: string;
  onDisk: string;
  bytes: Uint8Array;
  from: number;
  to: number;
  offered: CodeAction[];
  /** The WorkspaceEdit of a resolved action as tug's edits, moves and file creations. */
  convert(edit: WorkspaceEdit): ConvertedEdit;
}

export type SiteInput = Omit<AssistInput, 'operation' | 'assists' | 'name'>;

/** rust-analyzer's assist id of an action (its data.id is `id:kind:index`). */
export function idOf(action: CodeAction): string {
  return String((action.data as { id?: string } | undefined)?.id ?? '').split(':')[0]!;
}

/** Reads the snapshot, starts (or reuses) rust-analyzer on it, and asks for the code actions at the range. */
export async function atAssistSite<T>(input: SiteInput, body: (site: AssistSite) => Promise<T>): Promise<T> {
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
  const binary = (await requireRustAnalyzer(input.rustAnalyzer)).path;
  return withRustAnalyzer({ repo: input.repo, session: input.session, commit: input.commit, cargoRoot, binary, noWait: input.noWait }, async (server, root) => {
    const treeRoot = cargoRoot === '' ? root : root.slice(0, -cargoRoot.length - 1);
    const onDisk = path.join(treeRoot, input.file);
    const textDocument = { uri: pathToFileURL(onDisk).href };
    const range = { start: lspPositionOfOffset(bytes, from, server.encoding, starts), end: lspPositionOfOffset(bytes, to, server.encoding, starts) };
    const offered = ((await server.request<Array<CodeAction | { command: string }> | null>('textDocument/codeAction', { textDocument, range, context: { diagnostics: [] } })) ?? []).filter(
      (a): a is CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string'),
    );
    const fileOf = (uri: string) => path.relative(treeRoot, fileURLToPath(uri)).split(path.sep).join('/');
    const convert = (edit: WorkspaceEdit) =>
      convertWorkspaceEdit(edit, {
        encoding: server.encoding,
        locate: (uri) => {
          const file = fileOf(uri);
          return file.startsWith('..') ? { skip: 'outside-workspace', where: fileURLToPath(uri) } : { path: file };
        },
        bytes: (file) => bytesOf.get(file),
        filesUnder: (dir) => [...bytesOf.keys()].filter((f) => f.startsWith(`${dir}/`)).sort(),
      });
    return body({ server, where, uri: textDocument.uri, onDisk, bytes, from, to, offered, convert });
  });
}

export async function planRustAssist(input: AssistInput): Promise<AssistPlan> {
  if (input.name !== undefined) assertRustIdentifier(input.name, undefined);
  return atAssistSite(input, async ({ server, where, uri, onDisk, bytes, from, to, offered, convert }) => {
    const chosen = input.assists.map((id) => offered.find((a) => idOf(a) === id)).find((a) => a !== undefined);
    if (!chosen) {
      const names = [...new Set(offered.map(idOf).filter((id) => id !== ''))].sort();
      throw new TugError('UnsupportedByAdapter', `rust-analyzer offers no ${input.assists.join(' or ')} at ${where}`, {
        details: { operation: input.operation, wanted: [...input.assists], offered: names, location: where },
        location: { file: input.file, line: input.start.line, col: input.start.col },
      });
    }
    const location = idOf(chosen) === 'inline_call' ? await calleeInWorkspace(server, uri, bytes, from, where, onDisk.slice(0, onDisk.length - input.file.length)) : null;
    const callee = location ? calleeSource(location, server.encoding) : null;
    if (callee) refuseEarlyExit(callee.text, callee.nameAt, callee.name, where);
    if (idOf(chosen) === 'extract_variable') refuseConditionalExtract(decoder.decode(bytes), decoder.decode(bytes.subarray(0, from)).length, input.file, input.start.line, input.start.col);
    if (idOf(chosen) === 'extract_function') refuseHeldForDrop(decoder.decode(bytes.subarray(from, to)), decoder.decode(bytes), decoder.decode(bytes.subarray(to)));
    const resolved = chosen.edit ? chosen : await server.request<CodeAction>('codeAction/resolve', chosen);
    if (!resolved.edit) throw new TugError('InternalError', `rust-analyzer resolved ${idOf(chosen)} without an edit`, { details: { assist: idOf(chosen) } });
    const converted = convert(resolved.edit);
    if (converted.edits.length === 0) throw new TugError('UnsupportedByAdapter', `${idOf(chosen)} at ${where} changes nothing`, { details: { operation: input.operation, offered: [idOf(chosen)], location: where } });
    const kind = idOf(chosen) === 'extract_function' ? 'function' : 'variable';
    const selected = decoder.decode(bytes.subarray(from, to));
    const created = createdFunction(converted.edits) ?? 'fun_name';
    const fixed = kind === 'function' ? nameFieldLifetimes(checkExtractedSignature(repairExtracted(converted.edits, selected, created), created, bytes, from, to), created, bytes) : converted.edits;
    const named = input.name === undefined ? fixed : await renameCreated({ server, file: input.file, onDisk, uri, original: bytes, edits: fixed, selected, name: input.name, kind });
    const typed = callee ? await typeLiteralArguments(suffixPastedLiterals(parenthesizeInlined(named, from, bytes), from, callee), from, callee, () => sameNames(server, uri, callee.location, bytes, from)) : named;
    const edits = callee ? await ascribeInlinedCall(server, uri, bytes, from, typed, callee) : typed;
    return { title: resolved.title, edits, moves: converted.moves, warnings: converted.warnings };
  });
}

/**
 * inline_call of a fn defined outside the workspace (std's `Vec::new`) pastes its body, which names the other crate's
 * private items (shlex in the sweep: `RawVec`, E0412): refused, only the workspace's own fns are inlined. Returns the
 * callee's definition (null when rust-analyzer gives none), which the inlined call's annotation reads.
 */
async function calleeInWorkspace(server: RustAnalyzer, uri: string, bytes: Uint8Array, from: number, where: string, treeRoot: string): Promise<Location | null> {
  const position = lspPositionOfOffset(bytes, from, server.encoding);
  const found = await server.request<Location[] | Location | null>('textDocument/definition', { textDocument: { uri }, position }).catch(() => null);
  const locations = found === null ? [] : Array.isArray(found) ? found : [found];
  const outside = locations.filter((l) => !fileURLToPath(l.uri).startsWith(treeRoot));
  if (locations.length > 0 && outside.length === locations.length) {
    throw new TugError('UnsupportedByAdapter', `the fn called at ${where} is defined outside the workspace (${fileURLToPath(outside[0]!.uri)}); only the workspace's own fns are inlined`, {
      details: { operation: 'inline', offered: ['inline_call'], reason: 'callee outside the workspace', location: where },
    });
  }
  return locations.length === 1 ? locations[0]! : null;
}

/** The name of the fn an extract_function edit adds (rust-analyzer picks `fun_name`, or `fun_name1`, … when taken). */
function createdFunction(edits: readonly EditRequest[]): string | undefined {
  for (const e of edits) {
    const m = /\bfn\s+(fun_name\d*)\b/u.exec(e.new_text);
    if (m) return m[1];
  }
  return undefined;
}
