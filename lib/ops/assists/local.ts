// A single-file refactor that both languages serve: the file's extension picks tug's Python worker or rust-analyzer's
// assist, and its run and analyze-impact preview come from that one planner.
import { resolveUserPath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { refactorDoors, type RefactorDoors } from '../change/doors.js';
import type { ChangeOptions, Planner } from '../change/types.js';
import { languageOf, planRustAssistChange, unsupportedLanguage, type AssistKind, type AssistTarget } from './rust.js';
import { planPythonLocal, warmPythonFor, type LocalPlan } from './python.js';

export type LocalTarget = ChangeOptions & AssistTarget & { file: string };

/** `beforeRust` refuses what only the Python side takes (e.g. extract-variable's `all`). */
export function localRefactorDoors<I extends LocalTarget>(kind: AssistKind, pythonPlan: (input: I) => LocalPlan, beforeRust?: (input: I) => void): RefactorDoors<I> {
  const planner = (input: I, context: OperationContext): Planner => async (ws, snapshot) => {
    const file = await resolveUserPath(ws.repo, input.file, 'file');
    const language = languageOf(file);
    if (language === 'python') return planPythonLocal(ws, snapshot, file, input.python, pythonPlan(input), context);
    beforeRust?.(input);
    if (language === 'rust') return planRustAssistChange(ws, snapshot, kind, file, input, context);
    throw unsupportedLanguage(kind.operation, file, 'Python and Rust');
  };
  return refactorDoors<I>(kind.operation, planner, (input) => warmPythonFor(input.file, input.python));
}
