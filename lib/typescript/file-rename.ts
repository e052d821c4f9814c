// Renaming a TypeScript/JavaScript module (rename-symbol at a module specifier): the file, or the directory of an index module, moves, and every import, export-from, require and import() of it is rewritten — the language service's getEditsForFileRename in every project, then every specifier it left checked and written by tug in the file's own style.
import path from 'node:path';
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import type { EditRequest, FileMove } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, offsetOf } from '../core/text.js';
import { rewriteEdits } from '../core/text-edits.js';
import type { Repo } from '../git/repo.js';
import { inNodeModules, isScriptFile, OffsetMap } from './files.js';
import { fileRenameUnsure, type UnsureEntry } from './file-rename-unsure.js';
import { declarationPathOf, handDeclaredPair } from './hand-declared.js';
import { loadTypeScript } from './load.js';
import { moduleSpecifiers, resolveSpecifier, specifierLike } from './move-specifiers.js';
import { locationOf, syntaxError } from './rename-plan.js';
import { openTsWorkspace, requireScript, type TsWorkspace } from './workspace.js';

type LocationJSON = ReturnType<typeof locationOf>;

export interface TsFileRenamePlan {
  symbol: { id: string; name: string; kind: string; location: LocationJSON };
  references: Array<{ location: LocationJSON; kind: 'import' }>;
  edits: EditRequest[];
  moves: FileMove[];
  warnings: WarningJSON[];
  unsure: UnsureEntry[];
  oldName: string;
}

/** Whether the position is inside a module specifier string (import/export-from/require/import()); parsed only, no service. */
export function isModuleSpecifierAt(file: string, bytes: Uint8Array, line: number, col: number): boolean {
  const starts = lineStarts(bytes);
  const offset = offsetOf(bytes, starts, line, col);
  if (offset === null) return false;
  // A specifier is a string literal: a line with no quote or backtick holds none, and then no parser is loaded (for a
  // project with its own compiler, tug's would be a second one, ~0.1 s, only to say no).
  if (!bytes.subarray(starts[line - 1], starts[line] ?? bytes.length).some((b) => b === 0x22 || b === 0x27 || b === 0x60)) return false;
  const { ts } = loadTypeScript(null);
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  return specifierAt(ts, source, new OffsetMap(text).utf16Of(offset)) !== null;
}

function specifierAt(ts: typeof TS, source: TS.SourceFile, position: number): TS.StringLiteralLike | null {
  return moduleSpecifiers(ts, source).find((s) => s.getStart(source) <= position && position < s.end) ?? null;
}

export interface TsFileRenameInput {
  repo: Repo;
  tree: string;
  target: { file: string; line: number; col: number };
  newName: string;
}

export async function planTsFileRename(input: TsFileRenameInput): Promise<TsFileRenamePlan> {
  const { file, line, col } = input.target;
  const ws = await openTsWorkspace(input.repo, input.tree, file);
  const { ts } = ws.compiler;
  const bytes = requireScript(ws, file);
  const label = `${file}:${line}:${col}`;
  const text = ws.fs.readFile(ws.fs.absolute(file))!;
  const project = ws.containing(file)[0];
  if (!project) throw new TugError('InternalError', `no TypeScript project holds ${file}`, { details: { path: file } });
  const source = project.service.getProgram()!.getSourceFile(ws.fs.absolute(file))!;
  const parseErrors = project.service.getSyntacticDiagnostics(ws.fs.absolute(file));
  if (parseErrors.length > 0) throw syntaxError(ts, file, bytes, parseErrors[0]!);
  const spec = specifierAt(ts, source, new OffsetMap(text).utf16Of(offsetOf(bytes, lineStarts(bytes), line, col)!));
  if (!spec) throw new TugError('SymbolNotFound', `no module specifier at ${label}`, { details: { location: label } });
  const resolved = resolveSpecifier(ws, ts, project.options, file, spec.text);
  if (resolved === null || inNodeModules(resolved) || !ws.paths.has(resolved)) {
    throw new TugError('UnsafeRefactor', `'${spec.text}' at ${label} is not a module of the workspace${resolved ? ` (${resolved})` : ''}; only the workspace's own files can be renamed`, {
      details: { reason: 'module outside the workspace', line, col },
    });
  }
  // `./util` naming util/index.ts renames the directory; `./util/index.js` or a plain file renames the file.
  const viaIndex = /(^|\/)index(\.d)?\.[mc]?[jt]sx?$/.test(resolved) && !/(^|\/)index(\.[mc]?[jt]sx?)?$/.test(spec.text);
  // A module with a hand-written declaration file beside it (lib.js and lib.d.ts) moves as the pair: importers resolve
  // to the declaration file, the runtime loads the JavaScript, and the specifier names both.
  const pair = viaIndex ? null : handDeclaredPair(resolved, ws.paths);
  const from = viaIndex ? path.posix.dirname(resolved) : (pair?.js ?? resolved);
  const to = destinationOf(from, input.newName, viaIndex);
  const moved = viaIndex ? [...ws.paths].filter((p) => p.startsWith(`${from}/`)).sort() : [from];
  const moves = moved.map((p) => ({ from: p, to: `${to}${p.slice(from.length)}` }));
  refuseTaken(ws, from, to);
  if (pair) {
    const declarationTo = declarationPathOf(to)!;
    refuseTaken(ws, pair.dts, declarationTo);
    moves.push({ from: pair.dts, to: declarationTo });
  }

  const after = serviceEdits(ws, pair ? moves : [{ from, to }], text);
  // A specifier naming the declaration file names the module: it is written for the JavaScript file's new path.
  const references = completeSpecifiers(ws, ts, after, pair ? moves.map((m) => (m.from === pair.dts ? { from: m.from, to } : m)) : moves);
  const edits: EditRequest[] = [];
  for (const [rel, next] of [...after].sort(([a], [b]) => (a < b ? -1 : 1))) edits.push(...rewriteEdits(rel, ws.fs.readFile(ws.fs.absolute(rel))!, next));
  const unsure = fileRenameUnsure(ws, ts, moves);
  const warnings: WarningJSON[] = ws.projects.problems.map((p) => ({ code: 'ConfigNotRead', message: `${p.config} could not be read: ${p.message}; its files were analysed with default options` }));
  if (unsure.length > 0) warnings.push({ code: 'UnsureReferences', message: `${unsure.length} place(s) may still name ${from}; tug left them as they are (see unsure)` });
  const definition = { file: resolved, line: 1, col: 1, byte_start: 0, byte_end: 0 };
  const oldName = path.posix.basename(from).replace(/\.[^.]+$/, '');
  return {
    symbol: { id: `sym_${sha256(`typescript-module\0${from}`).slice(0, 12)}`, name: oldName, kind: 'module', location: definition },
    references,
    edits,
    moves,
    warnings,
    unsure,
    oldName,
  };
}

/** A bare name stays in the same directory (keeping the extension); a path is taken from the workspace root. */
function destinationOf(from: string, newName: string, directory: boolean): string {
  const reject = (reason: string): never => {
    throw new TugError('InvalidArgument', `${JSON.stringify(newName)} is not a new name for ${from}: ${reason}`, { details: { argument: 'to', reason } });
  };
  if (newName.startsWith('/') || newName.split('/').some((p) => p === '..' || p === '.' || p === '') || inNodeModules(newName)) reject('give a name, or a path relative to the workspace root');
  const ext = path.posix.extname(from);
  const base = newName.includes('/') ? newName : path.posix.join(path.posix.dirname(from), newName);
  if (directory) {
    if (isScriptFile(newName)) reject('it names a directory module (an index file): give a directory name');
    return base;
  }
  if (isScriptFile(base)) {
    if (/\.[mc]?tsx?$/.test(base) !== /\.[mc]?tsx?$/.test(from)) reject(`a ${ext} module cannot become ${path.posix.extname(base)}: that changes its language`);
    return base;
  }
  return `${base}${ext}`;
}

function refuseTaken(ws: TsWorkspace, from: string, to: string): void {
  // A file or a directory of that name, whichever is moving.
  const taken = ws.paths.has(to) || [...ws.paths].some((p) => p.startsWith(`${to}/`));
  if (to === from) throw new TugError('InvalidArgument', `${from} already has that name`, { details: { argument: 'to', reason: 'same name' } });
  if (taken) {
    throw new TugError('NameConflict', `renaming ${from} would move it onto ${to}, which exists`, { details: { conflicts: [{ file: to, line: 1, col: 1, reason: 'already_defined', name: path.posix.basename(to) }] } });
  }
}

/**
 * The service's edits for each rename (a file, a directory, or the two files of a hand-declared module) from every
 * project, the first project to answer for a file winning (files are keyed by their old path).
 */
function serviceEdits(ws: TsWorkspace, renames: readonly FileMove[], sample: string): Map<string, string> {
  const { ts } = ws.compiler;
  const after = new Map<string, string>();
  const format = ts.getDefaultFormatCodeSettings(sample.includes('\r\n') ? '\r\n' : '\n');
  for (const project of ws.projects.all(ws.scripts, ws.configs)) {
    const byFile = new Map<string, TS.TextChange[]>();
    // A pair moving together (hand-declared.ts): each specifier resolves to one of the two, so their edits do not meet.
    for (const move of renames) {
      for (const change of project.service.getEditsForFileRename(ws.fs.absolute(move.from), ws.fs.absolute(move.to), format, {})) byFile.set(change.fileName, [...(byFile.get(change.fileName) ?? []), ...change.textChanges]);
    }
    for (const [fileName, changes] of byFile) {
      const rel = ws.fs.relative(fileName);
      if (rel === null || inNodeModules(rel) || after.has(rel) || !ws.bytes.has(rel)) continue;
      let out = '';
      let at = 0;
      const base = ws.fs.readFile(fileName)!;
      for (const c of [...changes].sort((a, b) => a.span.start - b.span.start || a.span.length - b.span.length)) {
        if (c.span.start < at) continue; // the same specifier's edit from the other file of a pair
        out += base.slice(at, c.span.start) + c.newText;
        at = c.span.start + c.span.length;
      }
      after.set(rel, out + base.slice(at));
    }
  }
  return after;
}

/**
 * Every specifier of every script that named a moved file must name it at its new place: the service skips some
 * (`require` in a TypeScript file, a file no project's program holds); tug rewrites those in the file's own style.
 * Returns each specifier as a reference.
 */
function completeSpecifiers(ws: TsWorkspace, ts: typeof TS, after: Map<string, string>, moves: readonly FileMove[]): TsFileRenamePlan['references'] {
  const target = new Map(moves.map((m) => [m.from, m.to]));
  const references: TsFileRenamePlan['references'] = [];
  for (const file of ws.scripts) {
    const text = ws.fs.readFile(ws.fs.absolute(file))!;
    if (!/\b(import|export|require)\b/.test(text)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const options = ws.containing(file)[0]?.options ?? {};
    const fixes: Array<{ start: number; end: number; text: string }> = [];
    const selfTo = target.get(file) ?? file;
    for (const spec of moduleSpecifiers(ts, source)) {
      const resolved = resolveSpecifier(ws, ts, options, file, spec.text);
      const movesTo = resolved === null ? undefined : target.get(resolved);
      const selfMoves = target.has(file) && spec.text.startsWith('.') && resolved !== null;
      if (!movesTo && !selfMoves) continue;
      const start = spec.getStart(source) + 1;
      const end = spec.end - 1;
      const map = new OffsetMap(text);
      if (movesTo) references.push({ location: locationOf(ws, file, map.byteOf(start), map.byteOf(end)), kind: 'import' });
      const done = after.get(file);
      if (done !== undefined && !stillWritten(done, text, start, end)) continue; // the service rewrote it
      const wanted = specifierLike(spec.text, resolved!, selfTo, movesTo ?? resolved!);
      if (wanted !== null && wanted !== spec.text && (movesTo || path.posix.dirname(selfTo) !== path.posix.dirname(file))) fixes.push({ start, end, text: wanted });
    }
    if (fixes.length === 0) continue;
    // Applied to the original text (the service's edits to the same file are kept by rebasing them on top).
    let out = after.get(file) ?? text;
    for (const fix of fixes.sort((a, b) => b.start - a.start)) {
      const at = locate(out, text, fix.start, fix.end);
      if (at !== null) out = out.slice(0, at) + fix.text + out.slice(at + (fix.end - fix.start));
    }
    after.set(file, out);
  }
  return references.sort((a, b) => (a.location.file < b.location.file ? -1 : a.location.file > b.location.file ? 1 : a.location.byte_start - b.location.byte_start));
}

/** Whether the specifier text at [start, end) of `before` is still there, at the same place counted from its line, in `after`. */
function stillWritten(after: string, before: string, start: number, end: number): boolean {
  return locate(after, before, start, end) !== null;
}

function locate(after: string, before: string, start: number, end: number): number | null {
  const lineStart = before.lastIndexOf('\n', start - 1) + 1;
  const prefix = before.slice(lineStart, start);
  const wanted = prefix + before.slice(start, end);
  const lineNo = before.slice(0, lineStart).split('\n').length - 1;
  // The service's specifier edits keep the line count, so the line is found by its number.
  const lines = after.split('\n');
  if (lineNo >= lines.length) return null;
  const found = lines[lineNo]!.indexOf(wanted);
  if (found < 0) return null;
  return lines.slice(0, lineNo).reduce((n, l) => n + l.length + 1, 0) + found + prefix.length;
}
