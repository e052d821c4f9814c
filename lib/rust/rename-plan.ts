// Plans a Rust rename with rust-analyzer: prepareRename, rename, then a check that no occurrence inside a macro was left behind unreported.
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import type { Location as LspLocation, Range, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { TugError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import type { EditRequest, FileMove } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, offsetOf, positionOf } from '../core/text.js';
import { readBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import { listTreePaths, type TreePath } from '../git/snapshot.js';
import { oldVersionWarning, requireRustAnalyzer } from './discovery.js';
import { assertRustIdentifier } from './identifiers.js';
import type { RustAnalyzer } from './lsp-client.js';
import { scanRust } from './macro-calls.js';
import { lspPositionOfOffset, offsetOfLspPosition } from './positions.js';
import { withRustAnalyzer, type ServerUse } from './servers.js';
import { findUnsure, type RustUnsure } from './unsure.js';
import { withDocTests } from './doctests.js';
import { foreignTraitOf } from './foreign-trait.js';
import { convertWorkspaceEdit } from './workspace-edit.js';

export interface RustTarget {
  file: string;
  line: number;
  col: number;
}

type LocationJSON = { file: string; line: number; col: number; byte_start: number; byte_end: number };

export interface RustRenamePlan {
  symbol: { id: string; name: string; kind: string; location: LocationJSON };
  references: Array<{ location: LocationJSON; kind: 'definition' | 'reference' }>;
  edits: EditRequest[];
  moves: FileMove[];
  warnings: WarningJSON[];
  /** Occurrences rust-analyzer could not see; renamed only with includeUnsure. */
  unsure: RustUnsure[];
  oldName: string;
  server: ServerUse;
}

export interface RustPlanInput {
  repo: Repo;
  session: { dir: string; paths: { workers: string } };
  /** Snapshot tree and the commit holding it. */
  tree: string;
  commit: string;
  target: RustTarget;
  newName: string;
  rustAnalyzer?: string | undefined;
  noWait?: boolean | undefined;
  /** Also rename the unsure occurrences (each is still listed, with renamed: true). */
  includeUnsure?: boolean | undefined;
}

const STD_MISSING: WarningJSON = {
  code: 'StdSourcesMissing',
  message: 'rust-analyzer could not load the std sources, so std macro calls (write!, format!, vec!, …) are not expanded; names inside them are listed as unsure (run `tug toolchain rust setup`)',
};

const decoder = new TextDecoder();

export async function planRustRename(input: RustPlanInput): Promise<RustRenamePlan> {
  const { repo, target } = input;
  const entries = await listTreePaths(repo, input.tree);
  const cargoRoot = await workspaceRoot(repo, entries, cargoRootOf(entries, target.file));
  const rustEntries = entries.filter((e) => e.path.endsWith('.rs') && e.type === 'blob' && within(e.path, cargoRoot) && !inTargetDir(e.path, cargoRoot));
  const blobs = await readBlobs(repo, rustEntries.map((e) => e.oid));
  const bytesOf = new Map(rustEntries.map((e) => [e.path, blobs.get(e.oid)!]));
  const bytes = bytesOf.get(target.file);
  if (!bytes) throw new TugError('FileNotFound', `${target.file} is not a Rust file of the workspace`, { details: { path: target.file } });
  const starts = lineStarts(bytes);
  const offset = offsetOf(bytes, starts, target.line, target.col);
  const where = `${target.file}:${target.line}:${target.col}`;
  if (offset === null) throw new TugError('InvalidPosition', `${where} is outside the file`, { details: { location: where, file_lines: starts.length }, location: target });
  const word = wordAt(decoder.decode(bytes), bytes, offset);
  assertRustIdentifier(input.newName, word?.startsWith("'") ? word : undefined);
  const analyzer = await requireRustAnalyzer(input.rustAnalyzer);
  const binary = analyzer.path;
  const stale = oldVersionWarning(analyzer.version);

  return withRustAnalyzer(
    { repo, session: input.session, commit: input.commit, cargoRoot, binary, noWait: input.noWait },
    async (server, root, use) => {
      const treeRoot = cargoRoot === '' ? root : root.slice(0, -cargoRoot.length - 1);
      const uriOf = (file: string) => pathToFileURL(path.join(treeRoot, file)).href;
      const fileOf = (uri: string): string | null => {
        const absolute = fileURLToPath(uri);
        const rel = path.relative(treeRoot, absolute);
        return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep).join('/');
      };
      return withDocTests(server, { root, dir: cargoRoot, files: bytesOf }, (word ?? '').replace(/^r#/, ''), async (overlay) => {
      // With doc tests shown to rust-analyzer, the crate root it sees is longer; spans there are mapped back to the comments.
      const seen = (file: string) => (overlay && file === overlay.file ? overlay.text : bytesOf.get(file));
      const back = <E extends { file: string; start: number; end: number }>(e: E): E | null => {
        if (!overlay || e.file !== overlay.file) return e;
        const at = overlay.locate(e.start, e.end);
        return at ? { ...e, ...at } : null;
      };
      const textDocument = { uri: uriOf(target.file) };
      const position = lspPositionOfOffset(bytes, offset, server.encoding, starts);
      const prepared = await ask<Range | { range: Range; placeholder: string } | { defaultBehavior: boolean } | null>(server, 'textDocument/prepareRename', { textDocument, position });
      if (!prepared || !('range' in prepared || 'start' in prepared)) {
        throw await notRenamable(server, textDocument, position, where, fileOf, bytesOf);
      }
      await refuseForeignTraitMethod(server, textDocument, position, where, fileOf, seen);
      const range = 'range' in prepared ? prepared.range : prepared;
      const oldName = decoder.decode(bytes.subarray(offsetOfLspPosition(bytes, range.start, server.encoding, starts), offsetOfLspPosition(bytes, range.end, server.encoding, starts)));
      assertRustIdentifier(input.newName, oldName);
      const edit = await ask<WorkspaceEdit | null>(server, 'textDocument/rename', { textDocument, position, newName: input.newName });
      if (!edit) throw new TugError('SymbolNotFound', `rust-analyzer found nothing to rename at ${where}`, { details: { location: where } });
      const converted = convertWorkspaceEdit(edit, {
        encoding: server.encoding,
        locate: (uri) => {
          const file = fileOf(uri);
          if (file === null) return { skip: 'outside-workspace', where: fileURLToPath(uri) };
          if (inTargetDir(file, cargoRoot)) return { skip: 'target-dir', where: file };
          return { path: file };
        },
        bytes: seen,
        filesUnder: (dir) => [...bytesOf.keys()].filter((f) => f.startsWith(`${dir}/`)).sort(),
      });
      converted.edits = converted.edits.flatMap((e) => {
        const at = back({ file: e.file, start: e.span!.start, end: e.span!.end });
        return at ? [{ ...e, file: at.file, span: { start: at.start, end: at.end } }] : [];
      });
      const locations = await ask<LspLocation[] | null>(server, 'textDocument/references', { textDocument, position, context: { includeDeclaration: true } });
      const definitions = await ask<LspLocation[] | null>(server, 'textDocument/definition', { textDocument, position });
      const kind = await symbolKind(server, definitions?.[0]);

      const toJSON = (file: string, start: number, end: number): LocationJSON => ({ file, ...positionOf(lineStarts(bytesOf.get(file)!), start), byte_start: start, byte_end: end });
      const spanOf = (loc: LspLocation) => {
        const file = fileOf(loc.uri);
        const b = file === null ? undefined : seen(file);
        if (!b) return null;
        return back({ file: file!, start: offsetOfLspPosition(b, loc.range.start, server.encoding), end: offsetOfLspPosition(b, loc.range.end, server.encoding) });
      };
      const definition = definitions?.map(spanOf).find((s) => s !== null) ?? { file: target.file, start: offset, end: offset + oldName.length };
      const references = (locations ?? [])
        .map(spanOf)
        .filter((s): s is NonNullable<typeof s> => s !== null)
        .map((s) => ({ location: toJSON(s.file, s.start, s.end), kind: s.file === definition.file && s.start === definition.start ? ('definition' as const) : ('reference' as const) }));

      const check = await findUnsure({
        server,
        bytesOf,
        uriOf,
        oldName,
        newName: input.newName,
        renamed: new Set(converted.edits.map((e) => `${e.file}\0${e.span!.start}`)),
        includeUnsure: input.includeUnsure ?? false,
        definition: bytesOf.has(definition.file) ? { file: definition.file, start: definition.start, bytes: bytesOf.get(definition.file)! } : undefined,
      });
      const noStd = server.stdMissing ? [STD_MISSING] : [];
      const symbol = {
        id: `sym_${sha256(`rust\0${definition.file}\0${definition.start}\0${oldName}`).slice(0, 12)}`,
        name: oldName,
        kind,
        location: toJSON(definition.file, definition.start, definition.end),
      };
      return {
        symbol,
        references,
        edits: [...converted.edits, ...check.edits],
        moves: converted.moves,
        warnings: [...(stale ? [stale] : []), ...noStd, ...converted.warnings, ...check.warnings],
        unsure: check.unsure,
        oldName,
        server: use,
      };
      });
    },
  );
}

/** The symbol's definition implements a method of a trait from outside the workspace: the trait cannot follow. */
async function refuseForeignTraitMethod(
  server: RustAnalyzer,
  textDocument: { uri: string },
  position: { line: number; character: number },
  where: string,
  fileOf: (uri: string) => string | null,
  seen: (file: string) => Uint8Array | undefined,
): Promise<void> {
  // The position itself first: on an impl's `type Item` rust-analyzer's definition is the trait's own item, outside
  // the workspace, and its rename then searched all of std for `Item` (the sweep: a 60 s timeout on strsim and shlex).
  const own = fileOf(textDocument.uri);
  const ownBytes = own === null ? undefined : seen(own);
  const at = ownBytes ? offsetOfLspPosition(ownBytes, position, server.encoding) : 0;
  const naming = ownBytes !== undefined && /\b(fn|type|const)\s+[\p{XID_Continue}]*$/u.test(decoder.decode(ownBytes.subarray(Math.max(0, at - 80), at)));
  const here = naming ? [{ uri: textDocument.uri, range: { start: position, end: position } }] : [];
  for (const def of [...here, ...((await ask<LspLocation[]>(server, 'textDocument/definition', { textDocument, position })) ?? [])]) {
    const file = fileOf(def.uri);
    const b = file === null ? undefined : seen(file);
    if (!b) continue;
    const foreign = await foreignTraitOf(server, b, offsetOfLspPosition(b, def.range.start, server.encoding), def.uri, (uri) => fileOf(uri) !== null);
    if (foreign) {
      throw new TugError('UnsafeRefactor', `the item at ${where} implements ${foreign.trait}, a trait from outside the workspace: its name and signature are the trait's`, {
        details: { reason: 'implements a foreign trait', trait: foreign.trait, line: def.range.start.line + 1, col: def.range.start.character + 1 },
      });
    }
  }
}

/** rust-analyzer's "cannot rename here" is an LSP error; tug reports the position's real problem instead. */
async function ask<T>(server: RustAnalyzer, method: string, params: unknown): Promise<T | null> {
  try {
    return await server.request<T>(method, params);
  } catch (error) {
    if (error instanceof TugError) throw error;
    const code = (error as { code?: number }).code;
    if (code === -32602 || code === -32600) return null;
    throw new TugError('InternalError', `rust-analyzer failed ${method}: ${(error as Error).message}`, { cause: error, details: { method } });
  }
}

/** Why there is nothing to rename: a definition a macro generates (UnsupportedInMacro), or no symbol at all. */
async function notRenamable(
  server: RustAnalyzer,
  textDocument: { uri: string },
  position: { line: number; character: number },
  where: string,
  fileOf: (uri: string) => string | null,
  bytesOf: Map<string, Uint8Array>,
): Promise<TugError> {
  const inMacro = (file: string, at: number, why: string, suggestion: string) => {
    const loc = { file, ...positionOf(lineStarts(bytesOf.get(file)!), at) };
    return new TugError('UnsupportedInMacro', `the symbol at ${where} ${why}; rust-analyzer cannot rename it`, { details: { macro_location: loc, suggestion }, location: loc });
  };
  // A name inside a macro call rust-analyzer cannot expand (it resolves nothing there).
  const own = fileOf(textDocument.uri);
  const ownBytes = own === null ? undefined : bytesOf.get(own);
  if (own !== null && ownBytes) {
    const at = offsetOfLspPosition(ownBytes, position, server.encoding);
    const call = scanRust(decoder.decode(ownBytes)).macros.find((m) => !m.definition && m.start < at && at < m.end);
    if (call) return inMacro(own, call.start, `is inside ${call.name}!(…), which rust-analyzer could not expand`, 'Point --at at the definition instead; uses inside macro calls are renamed with it and reported.');
  }
  // A definition a macro generates: rust-analyzer points at the macro call (and into the macro body).
  const definitions = (await ask<LspLocation[]>(server, 'textDocument/definition', { textDocument, position })) ?? [];
  const spans = definitions.flatMap((loc) => {
    const file = fileOf(loc.uri);
    const b = file === null ? undefined : bytesOf.get(file);
    if (!b) return [];
    const start = offsetOfLspPosition(b, loc.range.start, server.encoding);
    return [{ file: file!, start, text: decoder.decode(b.subarray(start, offsetOfLspPosition(b, loc.range.end, server.encoding))), bytes: b }];
  });
  const call = spans.find((s) => /^[\p{XID_Start}_][\p{XID_Continue}]*\s*!/u.test(s.text));
  const body = spans.find((s) => scanRust(decoder.decode(s.bytes)).macros.some((m) => m.definition && m.start <= s.start && s.start < m.end));
  const generated = call ?? body;
  if (generated) return inMacro(generated.file, generated.start, 'is defined by a macro', 'Rename the identifier in the macro definition or its invocation by hand.');
  return new TugError('SymbolNotFound', `no renamable symbol at ${where}`, { details: { location: where } });
}

async function symbolKind(server: RustAnalyzer, definition: LspLocation | undefined): Promise<string> {
  if (!definition) return 'symbol';
  type DocSymbol = { kind: number; selectionRange: Range; range: Range; children?: DocSymbol[] };
  const symbols = (await ask<DocSymbol[]>(server, 'textDocument/documentSymbol', { textDocument: { uri: definition.uri } })) ?? [];
  const contains = (r: Range, p: { line: number; character: number }) =>
    (r.start.line < p.line || (r.start.line === p.line && r.start.character <= p.character)) && (p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character));
  let found: DocSymbol | undefined;
  const walk = (list: DocSymbol[]) => {
    for (const s of list) {
      if (!('selectionRange' in s)) continue;
      if (contains(s.selectionRange, definition.range.start)) found = s;
      if (contains(s.range, definition.range.start)) walk(s.children ?? []);
    }
  };
  walk(symbols);
  return found ? (SYMBOL_KINDS[found.kind] ?? 'symbol') : 'symbol';
}

/** LSP SymbolKind numbers → the names tug reports. */
const SYMBOL_KINDS: Record<number, string> = {
  2: 'module', 5: 'class', 6: 'method', 7: 'property', 8: 'field', 9: 'constructor', 10: 'enum', 11: 'interface', 12: 'function',
  13: 'variable', 14: 'constant', 22: 'enum_member', 23: 'struct', 26: 'type_parameter',
};

/** Directory (repo-relative) of the Cargo workspace that owns `file`: the nearest Cargo.toml, or an enclosing [workspace]. */
export function cargoRootOf(entries: readonly TreePath[], file: string): string {
  const manifests = new Set(entries.filter((e) => e.path === 'Cargo.toml' || e.path.endsWith('/Cargo.toml')).map((e) => path.posix.dirname(e.path)));
  const dirs: string[] = [];
  for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
    dirs.push(dir === '.' ? '' : dir);
    if (dir === '.' || dir === '/' || dir === '') break;
  }
  const owner = dirs.find((d) => manifests.has(d === '' ? '.' : d));
  if (owner === undefined) {
    throw new TugError('NotCargoProject', `no Cargo.toml above ${file}`, { details: { path: file } });
  }
  return owner;
}

/** A member crate belongs to the outermost enclosing Cargo.toml that declares [workspace]; rust-analyzer loads all of it. */
export async function workspaceRoot(repo: Repo, entries: readonly TreePath[], crate: string): Promise<string> {
  const ancestors: TreePath[] = [];
  for (let dir = crate; dir !== ''; ) {
    dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
    const manifest = entries.find((e) => e.path === (dir === '' ? 'Cargo.toml' : `${dir}/Cargo.toml`));
    if (manifest) ancestors.push(manifest);
  }
  if (ancestors.length === 0) return crate;
  const blobs = await readBlobs(repo, ancestors.map((e) => e.oid));
  let root = crate;
  for (const manifest of ancestors) {
    if (/^\s*\[workspace\]/m.test(decoder.decode(blobs.get(manifest.oid)))) root = path.posix.dirname(manifest.path) === '.' ? '' : path.posix.dirname(manifest.path);
  }
  return root;
}

function within(file: string, dir: string): boolean {
  return dir === '' || file.startsWith(`${dir}/`);
}

function inTargetDir(file: string, cargoRoot: string): boolean {
  const rel = cargoRoot === '' ? file : file.slice(cargoRoot.length + 1);
  return rel.startsWith('target/');
}

function wordAt(text: string, bytes: Uint8Array, offset: number): string | null {
  const prefix = decoder.decode(bytes.subarray(0, offset));
  const match = /'?[\p{XID_Continue}]*$/u.exec(prefix);
  const rest = /^[\p{XID_Continue}]*/u.exec(text.slice(prefix.length));
  const word = `${match?.[0] ?? ''}${rest?.[0] ?? ''}`;
  return word === '' ? null : word;
}
