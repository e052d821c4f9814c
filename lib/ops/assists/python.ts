// The single-file Python refactors as proposals: the file from the snapshot, the worker's edits, a PatchSet.
import { buildPatchSet } from '../../core/patchset.js';
import type { WarningJSON } from '../../core/schemas.js';
import { askLocalRefactor, byteOffset, type LocalFile } from '../../python/local-refactor.js';
import { startPythonWorker } from '../../python/load-project.js';
import type { OperationContext } from '../operation.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Proposal } from '../change/types.js';
import { configFor, configuredPython } from '../workspace/config.js';
import type { Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';

export interface LocalPlan {
  /** The worker's request, given the file: op name and its parameters (byte offsets computed with `offset`). */
  request(file: LocalFile, offset: (line: number, column: number) => number): { op: 'extract_variable' | 'extract_function' | 'inline_local'; params: Record<string, unknown> };
  describe(answer: Record<string, unknown>): { subject: string; slug: string; warnings?: WarningJSON[] };
}

/** A warning of the worker's answer (EvaluationOrderChanged: the calls whose order the refactor changes). */
interface WorkerWarning {
  code: string;
  message: string;
  line: number;
  col: number;
  calls: string[];
}

/** The answer's warnings as the result lists them, located in the file the worker was given. */
export function workerWarnings(answer: Record<string, unknown>, path: string): WarningJSON[] {
  return ((answer['warnings'] ?? []) as WorkerWarning[]).map(({ code, message, line, col, calls }) => ({ code, message, location: { file: path, line, col }, details: { calls } }));
}

/** For a .py target: the worker starts before the snapshot is taken. Never fails; the plan reports problems. */
export function warmPythonFor(file: string, python: string | undefined): (ws: Workspace) => void {
  return (ws) => {
    if (!/\.pyi?$/.test(file)) return;
    startPythonWorker(ws.session, configFor(ws.repo, { python }).then(configuredPython, () => undefined));
  };
}

export async function planPythonLocal(ws: Workspace, snapshot: Snapshot, path: string, python: string | undefined, plan: LocalPlan, context: OperationContext): Promise<Proposal> {
  const files = await loadSourceFiles(ws.repo, snapshot.tree, [path]);
  const file = files.get(path)!;
  const { op, params } = plan.request(file, (line, column) => byteOffset(file, line, column));
  const config = await configFor(ws.repo, { python });
  context.progress?.('analysing the Python file');
  const answer = await askLocalRefactor<Record<string, unknown>>(ws.session, configuredPython(config), file, op, params);
  const described = plan.describe(answer);
  return { patch: buildPatchSet(answer.edits, files), warnings: described.warnings ?? [], subject: described.subject, slug: described.slug };
}
