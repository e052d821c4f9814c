// inline's work: a Python local variable (the worker's single-file inline), else a Python function across the project,
// else rust-analyzer's assist; run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { buildPatchSet } from '../../core/patchset.js';
import { withPythonProject } from '../../python/load-project.js';
import { planInlineFunction } from '../../python/inline-function/plan.js';
import { targetPython } from '../../python/target-python.js';
import { resolveUserPath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { refactorDoors } from '../change/doors.js';
import { loadSourceFiles } from '../change/source-files.js';
import { listTreePaths } from '../../git/snapshot.js';
import { isScriptFile } from '../../typescript/files.js';
import type { Planner, Proposal } from '../change/types.js';
import { languageOf, planRustAssistChange, unsupportedLanguage, type AssistKind } from '../assists/rust.js';
import { planPythonLocal, warmPythonFor, workerWarnings, type LocalPlan } from '../assists/python.js';
import { configFor, configuredPython } from '../workspace/config.js';
import type { Workspace } from '../workspace/workspace.js';
import type { Snapshot } from '../workspace/snapshot.js';
import type { inlineInput } from './schema.js';

const KIND: AssistKind = { operation: 'inline', assists: ['inline_local_variable', 'inline_call'], slug: 'inline' };

type Input = z.infer<typeof inlineInput>;

function localPlan(input: Input, target: string | undefined): LocalPlan {
  let path = input.file; // the repository path the worker's lines are in, once the file is known
  return {
    request: (file, offset) => {
      path = file.path;
      return { op: 'inline_local', params: { offset: offset(input.line, input.column), strict: input.strict ?? false, ...(target ? { target_python: target } : {}) } };
    },
    describe: (answer) => ({
      subject: `inline ${String(answer['name'])} in ${input.file} (${String(answer['uses'])} use${answer['uses'] === 1 ? '' : 's'})`,
      slug: `${String(answer['name'])}`,
      warnings: workerWarnings(answer, path),
    }),
  };
}

/** The local inline's refusals that mean "this is no local variable of a function": a function may be meant. */
function mayBeFunction(error: unknown): error is TugError {
  if (!(error instanceof TugError)) return false;
  const reason = String(error.details?.['reason'] ?? '');
  return (error.code === 'UnsupportedOperation' && reason === 'not a local variable') || (error.code === 'UnsafeRefactor' && reason.includes('is a module-level name'));
}

async function planPythonFunction(ws: Workspace, snapshot: Snapshot, file: string, input: Input, context: OperationContext, local: TugError | null): Promise<Proposal> {
  const python = configuredPython(await configFor(ws.repo, { python: input.python }));
  const target = await targetPython(ws.repo, snapshot.tree);
  context.progress?.('analysing the Python project');
  const at = { file, line: input.line, col: input.column };
  const plan = await withPythonProject(ws.repo, ws.session, snapshot.tree, python, { at }, (loaded) => planInlineFunction(loaded, { session: ws.session, python }, at, input.keep_definition ?? false, target));
  if (!plan) {
    throw local ?? new TugError('SymbolNotFound', `${file}:${input.line}:${input.column} is not on a module-level function (its def or a call of it)`, { details: { path: file, reason: 'not a function' }, location: { file, line: input.line, col: input.column } });
  }
  const files = await loadSourceFiles(ws.repo, snapshot.tree, [...new Set(plan.edits.map((e) => e.file))]);
  return {
    patch: buildPatchSet(plan.edits, files),
    warnings: plan.warnings,
    subject: `inline ${plan.name} (${plan.calls} call${plan.calls === 1 ? '' : 's'}${plan.removed ? ', definition removed' : ''})`,
    slug: plan.name,
  };
}

/** TypeScript/JavaScript: a variable, checked by tug and inlined by the language service's "Inline variable". */
async function planTsInlineChange(ws: Workspace, snapshot: Snapshot, file: string, input: Input, context: OperationContext): Promise<Proposal> {
  context.progress?.('asking the TypeScript language service');
  const { planTsInline } = await import('../../typescript/inline.js');
  const plan = await planTsInline({ repo: ws.repo, tree: snapshot.tree, file, line: input.line, col: input.column });
  const files = await loadSourceFiles(ws.repo, snapshot.tree, [file]);
  return { patch: buildPatchSet(plan.edits, files), warnings: [], subject: `inline ${plan.name} in ${file} (${plan.uses} use${plan.uses === 1 ? '' : 's'})`, slug: plan.name };
}

function planner(input: Input, context: OperationContext): Planner {
  return async (ws, snapshot) => {
    const file = await resolveUserPath(ws.repo, input.file, 'file');
    const language = languageOf(file);
    if (language === 'python') {
      // keep_definition names a function; otherwise the local inline answers first, as the cheaper and the commoner.
      if (input.keep_definition !== undefined) return planPythonFunction(ws, snapshot, file, input, context, null);
      // Should the local inline refuse, a function's analysis lists the whole tree: that starts now, alongside.
      listTreePaths(ws.repo, snapshot.tree).catch(() => undefined);
      try {
        return await planPythonLocal(ws, snapshot, file, input.python, localPlan(input, await targetPython(ws.repo, snapshot.tree)), context);
      } catch (error) {
        if (!mayBeFunction(error)) throw error;
        return planPythonFunction(ws, snapshot, file, input, context, error);
      }
    }
    if (input.keep_definition !== undefined) {
      throw new TugError('InvalidArgument', `keep_definition applies to Python functions; ${file} is not a Python file`, { details: { argument: 'keep_definition', reason: 'python only' } });
    }
    if (input.strict !== undefined) {
      throw new TugError('InvalidArgument', `strict applies to Python locals; ${file} is not a Python file`, { details: { argument: 'strict', reason: 'python only' } });
    }
    if (isScriptFile(file)) return planTsInlineChange(ws, snapshot, file, input, context);
    if (language === 'rust') {
      const proposal = await planRustAssistChange(ws, snapshot, KIND, file, input, context);
      const { checkInlineOrder } = await import('../../rust/inline-order.js');
      for (const change of proposal.patch.files) checkInlineOrder(new TextDecoder().decode(change.before), change.edits);
      return proposal;
    }
    throw unsupportedLanguage(KIND.operation, file, 'Python and Rust');
  };
}

const doors = refactorDoors<Input>('inline', planner, (input) => warmPythonFor(input.file, input.python));
export const runInline = doors.run;
export const previewInline = doors.preview;
