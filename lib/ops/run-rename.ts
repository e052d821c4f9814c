// Wires the Python rename plan into the change pipeline (run) and into a read-only report (analyze-impact).
import type { z } from 'zod';
import { TugError } from '../core/errors.js';
import { buildPatchSet } from '../core/patchset.js';
import { SCHEMA_VERSION, type RunResponseJSON } from '../core/schemas.js';
import { planPythonRename, type RenameTarget } from '../python/rename-plan.js';
import { resolveUserPath } from '../workspace/paths.js';
import type { OperationContext } from './operation.js';
import { runChange } from './pipeline.js';
import { orderWarnings } from './present.js';
import type { AnalyzeImpactResponse, analyzeImpactInput, renameInput } from './rename-op.js';
import { takeSnapshot } from './snapshot-service.js';
import { loadSourceFiles } from './source-files.js';
import { withWorkspace, type Workspace } from './workspace.js';
import { configFor, configuredPython } from './config.js';

async function target(ws: Workspace, at: string): Promise<RenameTarget> {
  const match = /^(.+):(\d+):(\d+)$/.exec(at);
  if (!match) throw new TugError('InvalidArgument', `--at ${at} is not FILE:LINE:COL`, { details: { argument: 'at', reason: 'expected FILE:LINE:COL' } });
  const file = await resolveUserPath(ws.repo, match[1]!, 'at');
  if (!/\.pyi?$/.test(file)) {
    throw new TugError('UnsupportedOperation', `rename-symbol supports Python files; ${file} is not one`, { details: { operation: 'rename-symbol', reason: 'unsupported language' } });
  }
  return { file, line: Number(match[2]), col: Number(match[3]) };
}

export async function runRename(input: z.infer<typeof renameInput>, context: OperationContext): Promise<RunResponseJSON> {
  return runChange(input, { operation: 'rename-symbol', scope: 'rename' }, async (ws, snapshot) => {
    context.progress?.('analysing Python files');
    const plan = await planPythonRename(ws.repo, ws.session, snapshot.tree, await target(ws, input.at), input.to, {
      python: configuredPython(await configFor(ws.repo, input)),
      renameStrings: input.rename_strings,
      renameComments: input.rename_comments,
    });
    const files = await loadSourceFiles(ws.repo, snapshot.tree, [...plan.edits.map((e) => e.file), ...plan.moves.map((m) => m.from)]);
    const patch = buildPatchSet(plan.edits, files, plan.moves);
    return { patch, warnings: plan.warnings, subject: `${plan.oldName} -> ${input.to}`, slug: `${plan.oldName}-to-${input.to}` };
  }, context);
}

export async function runAnalyzeImpact(input: z.infer<typeof analyzeImpactInput>): Promise<z.infer<typeof AnalyzeImpactResponse>> {
  return withWorkspace(input, { lock: false }, async (ws) => {
    const snapshot = await takeSnapshot(ws);
    try {
      const plan = await planPythonRename(ws.repo, ws.session, snapshot.tree, await target(ws, input.at), input.to, {
        python: configuredPython(await configFor(ws.repo, { python: input.python })),
        renameStrings: input.rename_strings,
        renameComments: input.rename_comments,
      });
      const references = [...plan.references].sort((a, b) =>
        a.location.file < b.location.file ? -1 : a.location.file > b.location.file ? 1 : a.location.line - b.location.line || a.location.col - b.location.col,
      );
      return {
        status: 'ok',
        schema_version: SCHEMA_VERSION,
        snapshot_id: snapshot.tree,
        symbol: plan.symbol,
        references,
        impact: { files_affected: new Set(references.map((r) => r.location.file)).size, references_count: references.length, edits_estimated: plan.edits.length },
        warnings: orderWarnings([...ws.warnings, ...plan.warnings]),
      };
    } catch (error) {
      if (error instanceof TugError) error.snapshotId ??= snapshot.tree;
      throw error;
    }
  });
}
