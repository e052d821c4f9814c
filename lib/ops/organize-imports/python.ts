// Python organize-imports as a proposal: each file from the snapshot through ruff's import rules, with the settings
// the repository's pyproject.toml or ruff.toml give, as one edit per file over the part that changed. The Python
// worker answers first for the files whose result it can prove (the same as ruff's, checked against ruff on real
// code by tests/python-organize-imports-engine.test.ts); ruff does the rest.
import { buildPatchSet, type EditRequest, type SourceFile } from '../../core/patchset.js';
import type { WarningJSON } from '../../core/schemas.js';
import { listTreePaths } from '../../git/snapshot.js';
import { importSettings, type ImportSettings } from '../../python/import-settings.js';
import { organizeImports } from '../../python/organize-imports.js';
import { askPython } from '../../python/load-project.js';
import { mark } from '../../core/timing.js';
import type { OperationContext } from '../operation.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Proposal } from '../change/types.js';
import type { Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';

async function readToml(ws: Workspace, tree: string, present: ReadonlySet<string>, file: string): Promise<Record<string, unknown> | undefined> {
  if (!present.has(file)) return undefined;
  const bytes = (await loadSourceFiles(ws.repo, tree, [file])).get(file)!.bytes;
  const { parse } = await import('smol-toml');
  try {
    return parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The smallest single edit that turns `before` into `after`: the common start and end stay as they are. */
function changedPart(file: string, before: Uint8Array, after: Uint8Array): EditRequest {
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
 * (~250 ms, started before the CLI loads for --all). tests/bench/organize-imports-engine.mjs measures both.
 */
const ENGINE_MAX_FILES = 40;

interface WorkerAnswer {
  results: Array<{ path: string; content?: string; unsupported?: string }>;
}

/**
 * The files the worker's engine organizes (a file it cannot prove, or isort settings it does not reproduce, come back
 * "unsupported"): never a stub, never a file that is not UTF-8. No answer at all (no interpreter, a worker
 * failure) leaves every file to ruff, which needs no Python.
 */
async function organizeInWorker(ws: Workspace, python: string | undefined, targets: readonly string[], sources: ReadonlyMap<string, SourceFile>, settings: ImportSettings): Promise<Map<string, Uint8Array>> {
  const done = new Map<string, Uint8Array>();
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const files: Array<{ path: string; content: string; package_init: boolean }> = [];
  for (const path of targets) {
    if (!path.endsWith('.py')) continue;
    try {
      files.push({ path, content: decoder.decode(sources.get(path)!.bytes), package_init: /(^|\/)__init__\.py$/.test(path) });
    } catch {
      // Not UTF-8: ruff's engine reports it.
    }
  }
  if (files.length === 0 || files.length > ENGINE_MAX_FILES) return done;
  let answer: WorkerAnswer;
  try {
    answer = await askPython<WorkerAnswer>(ws.session, python, 'organize_imports', { files, first_party: settings.firstParty, isort: settings.isort, line_length: settings.lineLength ?? 88 });
  } catch {
    return done;
  }
  for (const result of answer.results) if (typeof result.content === 'string') done.set(result.path, new TextEncoder().encode(result.content));
  mark('python: imports organized by the worker');
  return done;
}

export async function planPythonImports(ws: Workspace, snapshot: Snapshot, files: readonly string[] | 'all', python: string | undefined, context: OperationContext): Promise<Proposal> {
  const entries = await listTreePaths(ws.repo, snapshot.tree);
  const paths = entries.filter((e) => e.type === 'blob').map((e) => e.path);
  const present = new Set(paths);
  const targets = files === 'all' ? paths.filter((p) => /\.pyi?$/.test(p)) : [...files];
  const pyproject = await readToml(ws, snapshot.tree, present, 'pyproject.toml');
  const ruff = (await readToml(ws, snapshot.tree, present, 'ruff.toml')) ?? (await readToml(ws, snapshot.tree, present, '.ruff.toml'));
  const settings = importSettings(paths, pyproject, ruff);
  context.progress?.(`organizing imports in ${targets.length} file(s)`);
  const sources = await loadSourceFiles(ws.repo, snapshot.tree, targets);
  const byWorker = await organizeInWorker(ws, python, targets, sources, settings);
  const edits: EditRequest[] = [];
  for (const file of [...targets].sort()) {
    const before = sources.get(file)!.bytes;
    const after = byWorker.get(file) ?? (await organizeImports(file, before, { firstParty: settings.firstParty, isort: settings.isort, lineLength: settings.lineLength, packageInit: /(^|\/)__init__\.pyi?$/.test(file) }));
    if (!Buffer.from(before).equals(Buffer.from(after))) edits.push(changedPart(file, before, after));
  }
  const warnings: WarningJSON[] = settings.warnings;
  const label = files === 'all' ? 'the repository' : targets.length === 1 ? targets[0]! : `${targets.length} files`;
  return { patch: buildPatchSet(edits, sources), warnings, subject: `organize imports in ${label}`, slug: files === 'all' ? 'all' : targets.length === 1 ? targets[0]!.replace(/\.pyi?$/, '').replaceAll('/', '-') : `${targets.length}-files` };
}
