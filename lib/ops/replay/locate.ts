// Finds a recorded operation's target again on another tree: the Python symbol by its id (module + qualified path),
// anything else by following its file through renames and its line through the diff, checked against the recorded name.
import { diffArrays } from 'diff';
import { TugError } from '../../core/errors.js';
import { decodeText } from '../../core/text.js';
import { readBlobs } from '../../git/objects.js';
import { treeChanges } from '../../git/results.js';
import { entriesAt } from '../../git/snapshot.js';
import type { OperationRecordJSON, RecordedSymbolJSON } from '../change/record.js';
import { configFor, configuredPython } from '../workspace/config.js';
import type { Workspace } from '../workspace/workspace.js';

type Input = Record<string, unknown>;
const isPython = (file: string) => /\.pyi?$/.test(file);

/** The recorded input with its file, line and column moved to where the same target is in `to`. */
export async function relocate(ws: Workspace, record: OperationRecordJSON, to: string): Promise<Input> {
  const input: Input = { ...record.input };
  const from = record.snapshot;
  if (from === to) return input;
  const renamed = await fileRenames(ws, from, to);
  const follow = (file: string) => renamed.get(file) ?? file;
  if (typeof input['file'] === 'string' && !('line' in input)) input['file'] = follow(input['file']);
  if (Array.isArray(input['files'])) input['files'] = input['files'].map((f) => (typeof f === 'string' ? follow(f) : f));
  if (typeof input['file'] !== 'string' || typeof input['line'] !== 'number') return input;
  const symbol = record.symbol;
  if (symbol && isPython(symbol.file)) {
    const found = await pythonSymbol(ws, symbol, from, to);
    if (found) return { ...input, file: found.file, line: found.line, column: found.col };
  }
  const file = follow(input['file']);
  const line = await mapLine(ws, input['file'], file, from, to, input['line']);
  const name = symbol?.name;
  if (line === null) throw gone(symbol, `${input['file']}:${input['line']}`, 'the line it was on changed');
  input['file'] = file;
  if (typeof input['end_line'] === 'number') {
    const end = await mapLine(ws, String(record.input['file']), file, from, to, input['end_line']);
    if (end === null) throw gone(symbol, `${String(record.input['file'])}:${String(input['end_line'])}`, 'the range it covered changed');
    input['end_line'] = end;
  }
  input['line'] = line;
  if (name && typeof input['column'] === 'number') input['column'] = await columnOf(ws, to, file, line, name, input['column']);
  return input;
}

function gone(symbol: RecordedSymbolJSON | null, where: string, why: string): TugError {
  const what = symbol ? (symbol.qualified_name ?? symbol.name) : where;
  return new TugError('SymbolNotFound', `${what} is not in the new base: ${why} (recorded at ${where})`, {
    details: { symbol: symbol?.name ?? null, ...(symbol?.qualified_name ? { qualified_name: symbol.qualified_name } : {}), location: where, reason: why },
  });
}

async function fileRenames(ws: Workspace, from: string, to: string): Promise<Map<string, string>> {
  const changes = await treeChanges(ws.repo, from, to);
  return new Map(changes.filter((c) => c.status === 'renamed').map((c) => [c.oldPath!, c.path]));
}

async function textAt(ws: Workspace, tree: string, file: string): Promise<string | null> {
  const entry = (await entriesAt(ws.repo, tree, [file])).get(file);
  if (!entry) return null;
  const bytes = (await readBlobs(ws.repo, [entry.oid])).get(entry.oid);
  const text = bytes ? decodeText(bytes) : null;
  return text?.ok ? text.text : null;
}

/** The line in `to` that holds line `line` of `from` unchanged, or null when that line was edited or removed. */
async function mapLine(ws: Workspace, fromFile: string, toFile: string, from: string, to: string, line: number): Promise<number | null> {
  const before = await textAt(ws, from, fromFile);
  const after = await textAt(ws, to, toFile);
  if (before === null || after === null) return null;
  let oldAt = 1;
  let newAt = 1;
  for (const part of diffArrays(before.split('\n'), after.split('\n'))) {
    const count = part.count ?? part.value.length;
    if (part.added) newAt += count;
    else if (part.removed) {
      if (line >= oldAt && line < oldAt + count) return null;
      oldAt += count;
    } else {
      if (line >= oldAt && line < oldAt + count) return newAt + (line - oldAt);
      oldAt += count;
      newAt += count;
    }
  }
  return null;
}

/** The column of `name` on the line: the recorded one when the name is still there, else its only whole-word place. */
async function columnOf(ws: Workspace, tree: string, file: string, line: number, name: string, column: number): Promise<number> {
  const text = (await textAt(ws, tree, file))?.split('\n')[line - 1] ?? '';
  const bytes = new TextEncoder().encode(text);
  const at = new TextDecoder().decode(bytes.subarray(column - 1, column - 1 + new TextEncoder().encode(name).length));
  if (at === name) return column;
  const hits = [...text.matchAll(new RegExp(`(?<![\\w])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`, 'gu'))];
  if (hits.length !== 1) throw gone({ name, file, line, col: column }, `${file}:${line}:${column}`, hits.length === 0 ? `${name} is no longer on that line` : `${name} is on that line ${hits.length} times`);
  return new TextEncoder().encode(text.slice(0, hits[0]!.index)).length + 1;
}

interface Found {
  file: string;
  line: number;
  col: number;
}

/**
 * A Python symbol by its id in `to`. The id is recorded for renames; for other operations it is read from `from` at the
 * recorded place. null when the symbol is not a module or class member (a local, a parameter): the caller maps its line.
 */
async function pythonSymbol(ws: Workspace, symbol: RecordedSymbolJSON, from: string, to: string): Promise<Found | null> {
  const { listSymbols } = await import('../../python/symbols.js');
  const python = configuredPython(await configFor(ws.repo, {}));
  let id = symbol.id;
  if (!id) {
    const before = await listSymbols(ws.repo, ws.session, from, symbol.file, python).catch(() => []);
    const here = before.filter((s) => s.name === symbol.name && s.location.line === symbol.line);
    if (here.length !== 1) return null;
    id = here[0]!.id;
  }
  const all = await listSymbols(ws.repo, ws.session, to, undefined, python);
  const matches = all.filter((s) => s.id === id);
  if (matches.length === 1) return { file: matches[0]!.location.file, line: matches[0]!.location.line, col: matches[0]!.location.col };
  const what = symbol.qualified_name ?? symbol.name;
  if (matches.length > 1) {
    throw new TugError('AmbiguousSymbol', `${what} is defined ${matches.length} times in the new base (${matches.map((m) => `${m.location.file}:${m.location.line}`).join(', ')}); replay cannot tell which one the operation meant`, {
      details: { symbol: symbol.name, candidates: matches.map((m) => ({ name: m.name, location: { file: m.location.file, line: m.location.line, col: m.location.col } })) },
    });
  }
  const before = await listSymbols(ws.repo, ws.session, from, undefined, python).catch(() => []);
  // A symbol the listing never had (a local, a parameter) is found by its line instead.
  if (!before.some((s) => s.id === id)) return null;
  throw new TugError('SymbolNotFound', `${what} (recorded at ${symbol.file}:${symbol.line}:${symbol.col}) is not in the new base: it was removed, renamed or moved there`, {
    details: { symbol: symbol.name, ...(symbol.qualified_name ? { qualified_name: symbol.qualified_name } : {}), id, location: `${symbol.file}:${symbol.line}:${symbol.col}` },
  });
}
