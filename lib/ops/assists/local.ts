// A single-file refactor that both languages serve: the file's extension picks tug's Python worker or rust-analyzer's
// assist, and its run and analyze-impact preview come from that one planner.
import { resolveUserPath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { refactorDoors, type RefactorDoors } from '../change/doors.js';
import type { ChangeOptions, Planner } from '../change/types.js';
import { languageOf, planRustAssistChange, unsupportedLanguage, type AssistKind, type AssistTarget } from './rust.js';
import { planPythonLocal, warmPythonFor, type LocalPlan } from './python.js';
import { isScriptFile } from '../../typescript/files.js';
import { TugError } from '../../core/errors.js';
import { buildPatchSet } from '../../core/patchset.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Proposal } from '../change/types.js';
import type { Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';

/** TypeScript/JavaScript: the language service's Extract Symbol (constant or function), named by the caller. */
async function planTsExtractChange(ws: Workspace, snapshot: Snapshot, kind: AssistKind, file: string, input: LocalTarget, context: OperationContext): Promise<Proposal> {
  if (!input.new_name) throw new TugError('InvalidArgument', `${kind.operation} in a TypeScript/JavaScript file needs new_name (--name)`, { details: { argument: 'new_name', reason: 'required for TypeScript' } });
  if (input.line === undefined || input.end_line === undefined) throw new TugError('InvalidArgument', `${kind.operation} needs a range (--range F:L1:C1-L2:C2)`, { details: { argument: 'range', reason: 'required' } });
  context.progress?.('asking the TypeScript language service');
  const { planTsExtract } = await import('../../typescript/extract.js');
  const plan = await planTsExtract({
    repo: ws.repo, tree: snapshot.tree, file, newName: input.new_name, kind: kind.operation === 'extract-variable' ? 'constant' : 'function',
    start: { line: input.line, col: input.column ?? 1 }, end: { line: input.end_line, col: input.end_column ?? 1 },
  });
  const files = await loadSourceFiles(ws.repo, snapshot.tree, [file]);
  return { patch: buildPatchSet(plan.edits, files), warnings: [], subject: `${input.new_name} in ${file}`, slug: `${kind.slug}-${input.new_name}` };
}

export type LocalTarget = ChangeOptions & AssistTarget & { file: string };

/** `beforeRust` refuses what only the Python side takes (e.g. extract-variable's `all`). */
export function localRefactorDoors<I extends LocalTarget>(kind: AssistKind, pythonPlan: (input: I) => LocalPlan, beforeRust?: (input: I) => void): RefactorDoors<I> {
  const planner = (input: I, context: OperationContext): Planner => async (ws, snapshot) => {
    const file = await resolveUserPath(ws.repo, input.file, 'file');
    if (isScriptFile(file) && (kind.operation === 'extract-variable' || kind.operation === 'extract-function')) return planTsExtractChange(ws, snapshot, kind, file, input, context);
    const language = languageOf(file);
    if (language === 'python') return planPythonLocal(ws, snapshot, file, input.python, pythonPlan(input), context);
    beforeRust?.(input);
    if (language === 'rust') return planRustAssistChange(ws, snapshot, kind, file, input, context);
    throw unsupportedLanguage(kind.operation, file, 'Python and Rust');
  };
  return refactorDoors<I>(kind.operation, planner, (input) => warmPythonFor(input.file, input.python));
}
