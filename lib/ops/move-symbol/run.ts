// move-symbol's work: the snapshot's Python files, the analysis's edits and new files as one PatchSet, run through the
// change road or shown by analyze-impact.
import type { z } from 'zod';
import { buildPatchSet } from '../../core/patchset.js';
import { withFileOperations } from '../../core/file-ops.js';
import { readBlobs } from '../../git/objects.js';
import { listTreePaths } from '../../git/snapshot.js';
import { askPython } from '../../python/load-project.js';
import { docsMentions, planMoveSymbol } from '../../python/move-symbol/plan.js';
import { nativeMentions, refuseNamedByNativeCode } from '../../python/native-names.js';
import { resolveUserPath, resolveWritePath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { refactorDoors } from '../change/doors.js';
import { loadSourceFiles } from '../change/source-files.js';
import { isScriptFile } from '../../typescript/files.js';
import type { Planner } from '../change/types.js';
import { TugError } from '../../core/errors.js';
import type { Workspace } from '../workspace/workspace.js';
import { warmPythonFor } from '../assists/python.js';
import { configFor, configuredPython } from '../workspace/config.js';
import { projectImportSettings } from '../organize-imports/engine.js';
import type { moveSymbolInput } from './schema.js';
import { sortAddedImports } from './sorted-imports.js';

type Input = z.infer<typeof moveSymbolInput>;
type PlanResult = Awaited<ReturnType<Planner>>;

/** Environments and vendored trees: never a module the move should touch. */
const EXCLUDED = /(^|\/)(\.venv|venv|\.tox|node_modules|site-packages|__pycache__|\.git)\//;

function planner(input: Input, context: OperationContext): Planner {
  return async (ws, snapshot) => {
    const file = await resolveUserPath(ws.repo, input.file, 'file');
    if (isScriptFile(file)) return planTypeScript(ws, snapshot, input, file, context);
    if (file.endsWith('.rs')) {
      const destination = input.destination.endsWith('.rs') ? await resolveWritePath(ws.repo, input.destination, 'destination') : input.destination;
      return (await import('./rust.js')).planRustMoveSymbol(ws, snapshot, { ...input, file, destination }, context);
    }
    const destination = input.destination.endsWith('.py') ? await resolveWritePath(ws.repo, input.destination, 'destination') : input.destination;
    const entries = await listTreePaths(ws.repo, snapshot.tree);
    const python = entries.filter((e) => e.type === 'blob' && e.mode !== '120000' && /\.pyi?$/.test(e.path) && !EXCLUDED.test(e.path));
    const blobs = await readBlobs(ws.repo, python.map((e) => e.oid));
    const files = new Map(python.map((e) => [e.path, blobs.get(e.oid)!]));
    const config = await configFor(ws.repo, { python: input.python });
    context.progress?.('analysing the Python modules');
    const plan = await planMoveSymbol(
      { files, allPaths: new Set(entries.map((e) => e.path)), file, line: input.line, column: input.column, destination, keepReexport: input.keep_reexport ?? false },
      (op, params) => askPython(ws.session, configuredPython(config), op, params),
    );
    if (!input.keep_reexport) {
      const native = await nativeMentions(ws.repo, entries, plan.oldModule, plan.name);
      refuseNamedByNativeCode(native, plan.oldModule, plan.name, 'the move', { flag: 'keep_reexport', cli: '--keep-reexport' });
    }
    // Docs that name the old path: an example's import or a cross-reference, left as it is and listed.
    const docs = entries.filter((e) => e.type === 'blob' && e.mode !== '120000' && /\.(md|rst|txt)$/.test(e.path) && !EXCLUDED.test(e.path));
    const docBlobs = docs.length > 0 ? await readBlobs(ws.repo, docs.map((e) => e.oid)) : new Map<string, Uint8Array>();
    const mentions = docsMentions(new Map(docs.map((e) => [e.path, docBlobs.get(e.oid)!])), plan.oldModule, plan.name);
    const unsure = [...plan.unsure, ...mentions];
    const sources = await loadSourceFiles(ws.repo, snapshot.tree, [...new Set(plan.edits.map((e) => e.file))]);
    const { settings } = await projectImportSettings(ws, snapshot.tree, entries.filter((e) => e.type === 'blob').map((e) => e.path));
    const { edits, creates } = await sortAddedImports(ws, configuredPython(config), settings, plan, sources);
    const encoder = new TextEncoder();
    const patch = withFileOperations(buildPatchSet(edits, sources), creates.map((c) => ({ path: c.path, bytes: encoder.encode(c.content) })), []);
    const warnings = mentions.length > 0 && plan.unsure.length === 0 ? [...plan.warnings, { code: 'UnsureReferences', message: `${mentions.length} place(s) in the docs may still name ${plan.oldModule}.${plan.name}; tug left them as they are (see unsure)` }] : plan.warnings;
    const symbol = { name: plan.name, qualified_name: `${plan.oldModule}.${plan.name}`, file, line: input.line, col: input.column };
    return { patch, warnings, subject: plan.subject, slug: plan.slug, unsure, symbol };
  };
}

/** TypeScript/JavaScript: the language service's Move to file (lib/typescript/move.ts); Python's options do not apply. */
async function planTypeScript(ws: Workspace, snapshot: { tree: string }, input: Input, file: string, context: OperationContext): Promise<PlanResult> {
  if (input.python) throw new TugError('InvalidArgument', 'python applies to Python modules only', { details: { argument: 'python', reason: 'Python only' } });
  const destination = await resolveWritePath(ws.repo, input.destination, 'destination');
  context.progress?.('asking the TypeScript language service');
  const { planTsMove } = await import('../../typescript/move.js');
  const plan = await planTsMove({ repo: ws.repo, tree: snapshot.tree, file, line: input.line, col: input.column, destination, keepReexport: input.keep_reexport ?? false });
  const sources = await loadSourceFiles(ws.repo, snapshot.tree, [...new Set(plan.edits.map((e) => e.file))]);
  const encoder = new TextEncoder();
  const patch = withFileOperations(buildPatchSet(plan.edits, sources), plan.creates.map((c) => ({ path: c.path, bytes: encoder.encode(c.content) })), []);
  const symbol = { name: plan.name, qualified_name: `${file}#${plan.name}`, file, line: input.line, col: input.column };
  return { patch, warnings: plan.warnings, subject: plan.subject, slug: plan.slug, unsure: plan.unsure, symbol };
}

const doors = refactorDoors<Input>('move-symbol', planner, (input) => warmPythonFor(input.file, input.python));
export const runMoveSymbol = doors.run;
export const previewMoveSymbol = doors.preview;
