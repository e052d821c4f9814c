// The two engines behind organize-imports, for any caller: the worker's (Python, proven equal to ruff where it
// answers) first, ruff's WebAssembly for what it leaves; and the project's settings read from the snapshot. Shared
// by organize-imports and by move-symbol, which sorts the imports it adds as the project sorts them.
import type { EditRequest } from '../../core/patchset.js';
import { decodeText } from '../../core/text.js';
import { mark } from '../../core/timing.js';
import { importSettings, type ImportSettings } from '../../python/import-settings.js';
import { askPython } from '../../python/load-project.js';
import { organizeImports } from '../../python/organize-imports.js';
import { warmRuff } from '../../python/ruff-wasm.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Workspace } from '../workspace/workspace.js';

type Table = Record<string, unknown>;

async function readToml(ws: Workspace, tree: string, present: ReadonlySet<string>, file: string): Promise<Table | undefined> {
  if (!present.has(file)) return undefined;
  const bytes = (await loadSourceFiles(ws.repo, tree, [file])).get(file)!.bytes;
  const { parse } = await import('smol-toml');
  try {
    return parse(new TextDecoder().decode(bytes)) as Table;
  } catch {
    return undefined;
  }
}

function tableAt(value: unknown, ...keys: string[]): Table | undefined {
  let at = value;
  for (const key of keys) at = at && typeof at === 'object' && !Array.isArray(at) ? (at as Table)[key] : undefined;
  return at && typeof at === 'object' && !Array.isArray(at) ? (at as Table) : undefined;
}

/** The project's import settings, and ruff's own table (ruff.toml, .ruff.toml, else pyproject's [tool.ruff]). */
export async function projectImportSettings(ws: Workspace, tree: string, paths: readonly string[]): Promise<{ settings: ImportSettings; ruff: Table | undefined }> {
  const present = new Set(paths);
  const pyproject = await readToml(ws, tree, present, 'pyproject.toml');
  const ruff = (await readToml(ws, tree, present, 'ruff.toml')) ?? (await readToml(ws, tree, present, '.ruff.toml'));
  return { settings: importSettings(paths, pyproject, ruff), ruff: ruff ?? tableAt(pyproject, 'tool', 'ruff') };
}

/** The smallest single edit that turns `before` into `after`: the common start and end stay as they are. */
export function changedPart(file: string, before: Uint8Array, after: Uint8Array): EditRequest {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  // Keep whole UTF-8 characters on both sides of the cut.
  while (start > 0 && (before[start]! & 0xc0) === 0x80) start--;
  while (end > 0 && (before[before.length - end]! & 0xc0) === 0x80) end--;
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { file, span: { start, end: before.length - end }, old_text: decode(before.subarray(start, before.length - end)), new_text: decode(after.subarray(start, after.length - end)) };
}

/**
 * Above this many files ruff is the faster engine: the worker's takes ~6 ms a file, ruff ~1.6 ms once compiled
 * (~250 ms, started as soon as the files that need it are known).
 */
const ENGINE_MAX_FILES = 40;

/**
 * I001 and F401 act on import statements only: a UTF-8 file without the word `import` is already organized. Another
 * file (UTF-16, binary) still goes to ruff, whose refusal names it.
 */
export function mayImport(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('import') || !decodeText(bytes).ok;
}

export interface OrganizeItem {
  path: string;
  bytes: Uint8Array;
  /** Only sort (I001 without F401): a module whose imports other modules take from it (reexports.ts). */
  sortOnly?: boolean;
}

interface WorkerAnswer {
  results: Array<{ path: string; content?: string; unsupported?: string }>;
}

const isInit = (path: string) => /(^|\/)__init__\.pyi?$/.test(path);

/**
 * The items the worker's engine organizes, by index (a file it cannot prove, or isort settings it does not reproduce,
 * come back "unsupported"): never a stub, never a file that is not UTF-8. No answer at all (no interpreter, a worker
 * failure) leaves every file to ruff, which needs no Python.
 */
async function organizeInWorker(ws: Workspace, python: string | undefined, items: readonly OrganizeItem[], settings: ImportSettings, sortOnly: boolean): Promise<Map<number, Uint8Array>> {
  const done = new Map<number, Uint8Array>();
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const files: Array<{ path: string; content: string; package_init: boolean }> = [];
  items.forEach((item, index) => {
    if (!item.path.endsWith('.py')) return;
    try {
      // The worker's package_init is "sort only": what an __init__.py gets, and what a caller that only sorts asks.
      files.push({ path: String(index), content: decoder.decode(item.bytes), package_init: sortOnly || item.sortOnly === true || isInit(item.path) });
    } catch {
      // Not UTF-8: ruff's engine reports it.
    }
  });
  if (files.length === 0 || files.length > ENGINE_MAX_FILES) return done;
  let answer: WorkerAnswer;
  try {
    answer = await askPython<WorkerAnswer>(ws.session, python, 'organize_imports', { files, first_party: settings.firstParty, isort: settings.isort, line_length: settings.lineLength ?? 88 });
  } catch {
    return done;
  }
  for (const result of answer.results) if (typeof result.content === 'string') done.set(Number(result.path), new TextEncoder().encode(result.content));
  mark('python: imports organized by the worker');
  return done;
}

/**
 * Each item organized (or only sorted: I001 without F401), in the items' order. Items without an import statement
 * come back as they are; ruff compiles only for an item the worker's engine leaves.
 */
export async function organizeItems(ws: Workspace, python: string | undefined, items: readonly OrganizeItem[], settings: ImportSettings, sortOnly = false): Promise<Uint8Array[]> {
  const candidates = items.flatMap((item, index) => (mayImport(item.bytes) ? [index] : []));
  if (candidates.length > ENGINE_MAX_FILES) warmRuff();
  const byWorker = await organizeInWorker(ws, python, candidates.map((i) => items[i]!), settings, sortOnly);
  const out = items.map((item) => item.bytes);
  for (const [at, index] of candidates.entries()) {
    const item = items[index]!;
    out[index] = byWorker.get(at) ?? (await organizeImports(item.path, item.bytes, { firstParty: settings.firstParty, isort: settings.isort, lineLength: settings.lineLength, packageInit: sortOnly || item.sortOnly === true || isInit(item.path) }));
  }
  return out;
}
