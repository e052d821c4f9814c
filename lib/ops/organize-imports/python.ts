// Python organize-imports as a proposal: each file from the snapshot through ruff's import rules, with the settings
// the repository's pyproject.toml or ruff.toml give, as one edit per file over the part that changed.
import { buildPatchSet, type EditRequest } from '../../core/patchset.js';
import type { WarningJSON } from '../../core/schemas.js';
import { listTreePaths } from '../../git/snapshot.js';
import { importSettings } from '../../python/import-settings.js';
import { organizeImports } from '../../python/organize-imports.js';
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

export async function planPythonImports(ws: Workspace, snapshot: Snapshot, files: readonly string[] | 'all', context: OperationContext): Promise<Proposal> {
  const entries = await listTreePaths(ws.repo, snapshot.tree);
  const paths = entries.filter((e) => e.type === 'blob').map((e) => e.path);
  const present = new Set(paths);
  const targets = files === 'all' ? paths.filter((p) => /\.pyi?$/.test(p)) : [...files];
  const pyproject = await readToml(ws, snapshot.tree, present, 'pyproject.toml');
  const ruff = (await readToml(ws, snapshot.tree, present, 'ruff.toml')) ?? (await readToml(ws, snapshot.tree, present, '.ruff.toml'));
  const settings = importSettings(paths, pyproject, ruff);
  context.progress?.(`organizing imports in ${targets.length} file(s)`);
  const sources = await loadSourceFiles(ws.repo, snapshot.tree, targets);
  const edits: EditRequest[] = [];
  for (const file of [...targets].sort()) {
    const before = sources.get(file)!.bytes;
    const after = await organizeImports(file, before, { firstParty: settings.firstParty, isort: settings.isort, lineLength: settings.lineLength, packageInit: /(^|\/)__init__\.pyi?$/.test(file) });
    if (!Buffer.from(before).equals(Buffer.from(after))) edits.push(changedPart(file, before, after));
  }
  const warnings: WarningJSON[] = settings.warnings;
  const label = files === 'all' ? 'the repository' : targets.length === 1 ? targets[0]! : `${targets.length} files`;
  return { patch: buildPatchSet(edits, sources), warnings, subject: `organize imports in ${label}`, slug: files === 'all' ? 'all' : targets.length === 1 ? targets[0]!.replace(/\.pyi?$/, '').replaceAll('/', '-') : `${targets.length}-files` };
}
