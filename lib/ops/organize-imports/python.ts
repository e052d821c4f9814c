// Python organize-imports as a proposal: each file from the snapshot through ruff's import rules, with the settings
// the repository's pyproject.toml or ruff.toml give, as one edit per file over the part that changed. The Python
// worker answers first for the files whose result it can prove (the same as ruff's, checked against ruff on real
// code by tests/python-organize-imports-engine.test.ts); ruff does the rest (engine.ts).
import { buildPatchSet, type EditRequest } from '../../core/patchset.js';
import type { WarningJSON } from '../../core/schemas.js';
import { listTreePaths } from '../../git/snapshot.js';
import { excludedByRuff, ruffExclusions } from '../../python/ruff-exclude.js';
import type { OperationContext } from '../operation.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Proposal } from '../change/types.js';
import type { Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';
import { changedPart, organizeItems, projectImportSettings } from './engine.js';
import { reexportingFiles } from './reexports.js';

export async function planPythonImports(ws: Workspace, snapshot: Snapshot, files: readonly string[] | 'all', python: string | undefined, context: OperationContext): Promise<Proposal> {
  const entries = await listTreePaths(ws.repo, snapshot.tree);
  const paths = entries.filter((e) => e.type === 'blob').map((e) => e.path);
  const { settings, ruff } = await projectImportSettings(ws, snapshot.tree, paths);
  // --all is `ruff check .`: the files ruff's exclude and extend-exclude leave out stay as they are. A named file is
  // organized as asked, as ruff checks a file named on its command line.
  const excluded = ruffExclusions(ruff);
  const targets = files === 'all' ? paths.filter((p) => /\.pyi?$/.test(p) && !excludedByRuff(p, excluded)) : [...files];
  context.progress?.(`organizing imports in ${targets.length} file(s)`);
  const sources = await loadSourceFiles(ws.repo, snapshot.tree, targets);
  const ordered = [...targets].sort();
  const organized = await organizeItems(ws, python, ordered.map((path) => ({ path, bytes: sources.get(path)!.bytes })), settings);
  // Only a file that would change can lose an import another module takes from it: such files are sorted only.
  const changed = ordered.filter((file, index) => !Buffer.from(sources.get(file)!.bytes).equals(Buffer.from(organized[index]!)));
  const keep = changed.length > 0 ? await reexportingFiles(ws.repo, ws.session, snapshot.tree, paths, changed, sources, python) : new Set<string>();
  if (keep.size > 0) {
    const again = [...keep].sort();
    const sorted = await organizeItems(ws, python, again.map((path) => ({ path, bytes: sources.get(path)!.bytes, sortOnly: true })), settings);
    again.forEach((file, i) => (organized[ordered.indexOf(file)] = sorted[i]!));
  }
  const edits: EditRequest[] = [];
  ordered.forEach((file, index) => {
    const before = sources.get(file)!.bytes;
    const after = organized[index]!;
    if (!Buffer.from(before).equals(Buffer.from(after))) edits.push(changedPart(file, before, after));
  });
  const warnings: WarningJSON[] = settings.warnings;
  const label = files === 'all' ? 'the repository' : targets.length === 1 ? targets[0]! : `${targets.length} files`;
  return { patch: buildPatchSet(edits, sources), nothingToDoIsSuccess: true, warnings, subject: `organize imports in ${label}`, slug: files === 'all' ? 'all' : targets.length === 1 ? targets[0]!.replace(/\.pyi?$/, '').replaceAll('/', '-') : `${targets.length}-files` };
}
