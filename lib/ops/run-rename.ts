// Wires the Python and Rust rename plans into the change pipeline (run) and into a read-only report (analyze-impact).
import type { z } from 'zod';
import { TugError } from '../core/errors.js';
import { buildPatchSet } from '../core/patchset.js';
import { RunResponse, SCHEMA_VERSION, type RunResponseJSON } from '../core/schemas.js';
import { startPythonEarly } from '../python/load-project.js';
import { planPythonRename, type RenamePlan, type RenameTarget } from '../python/rename-plan.js';
import { resolveUserPath } from '../workspace/paths.js';
import type { OperationContext } from './operation.js';
import { runChange } from './pipeline.js';
import { orderWarnings } from './present.js';
import type { AnalyzeImpactResponse, analyzeImpactInput, renameInput } from './rename-op.js';
import { snapshotCommit, takeSnapshot, type Snapshot } from './snapshot-service.js';
import { loadSourceFiles } from './source-files.js';
import { withWorkspace, type Workspace } from './workspace.js';
import { configFor, configuredPython } from './config.js';
import { mark } from './timing.js';

type Language = 'python' | 'rust';

async function target(ws: Workspace, at: string): Promise<RenameTarget & { language: Language }> {
  const match = /^(.+):(\d+):(\d+)$/.exec(at);
  if (!match) throw new TugError('InvalidArgument', `--at ${at} is not FILE:LINE:COL`, { details: { argument: 'at', reason: 'expected FILE:LINE:COL' } });
  const file = await resolveUserPath(ws.repo, match[1]!, 'at');
  const language: Language | null = /\.pyi?$/.test(file) ? 'python' : file.endsWith('.rs') ? 'rust' : null;
  if (!language) {
    throw new TugError('UnsupportedOperation', `rename-symbol supports Python and Rust files; ${file} is neither`, { details: { operation: 'rename-symbol', reason: 'unsupported language' } });
  }
  return { file, line: Number(match[2]), col: Number(match[3]), language };
}

/** What both adapters answer with. */
type LanguagePlan = Pick<RenamePlan, 'symbol' | 'references' | 'edits' | 'moves' | 'warnings' | 'oldName'> & { unsure?: RunResponseJSON['unsure'] };

type RenameOptions = { to: string; python?: string | undefined; rust_analyzer?: string | undefined; no_wait?: boolean | undefined; rename_strings?: boolean | undefined; rename_comments?: boolean | undefined; include_unsure?: boolean | undefined };

/** The language adapter's plan for a rename; Python is tug's own analyzer, Rust is rust-analyzer. */
async function plan(ws: Workspace, snapshot: Snapshot, at: RenameTarget & { language: Language }, input: RenameOptions): Promise<LanguagePlan> {
  if (at.language === 'rust') {
    const { planRustRename } = await import('../rust/rename-plan.js');
    if (input.rename_strings || input.rename_comments) {
      throw new TugError('InvalidArgument', '--rename-strings and --rename-comments apply to Python renames', { details: { argument: input.rename_strings ? 'rename_strings' : 'rename_comments', reason: 'Python only' } });
    }
    return planRustRename({
      repo: ws.repo,
      session: ws.session,
      tree: snapshot.tree,
      commit: await snapshotCommit(ws, snapshot),
      target: at,
      newName: input.to,
      rustAnalyzer: input.rust_analyzer,
      noWait: input.no_wait,
      includeUnsure: input.include_unsure,
    });
  }
  return planPythonRename(ws.repo, ws.session, snapshot.tree, at, input.to, {
    python: configuredPython(await configFor(ws.repo, { python: input.python })),
    renameStrings: input.rename_strings,
    renameComments: input.rename_comments,
  });
}

/**
 * A Python rename on an empty facts cache parses every file, and the interpreter takes longer to start than
 * the snapshot takes: start it first. Fire and forget; the plan reports any problem with the interpreter.
 */
function warmUp(ws: Workspace, input: RenameOptions & { at: string }): void {
  if (!/\.pyi?:\d+:\d+$/.test(input.at)) return;
  const python = configFor(ws.repo, { python: input.python }).then(configuredPython);
  startPythonEarly(ws.session, python).catch(() => undefined);
}

export async function runRename(input: z.infer<typeof renameInput>, context: OperationContext): Promise<RunResponseJSON> {
  let unsure: NonNullable<LanguagePlan['unsure']> = [];
  const response = await runChange(input, { operation: 'rename-symbol', scope: 'rename', warmUp: (ws) => warmUp(ws, input) }, async (ws, snapshot) => {
    const at = await target(ws, input.at);
    context.progress?.(at.language === 'rust' ? 'asking rust-analyzer' : 'analysing Python files');
    const proposal = await plan(ws, snapshot, at, input);
    unsure = proposal.unsure ?? [];
    const files = await loadSourceFiles(ws.repo, snapshot.tree, [...proposal.edits.map((e) => e.file), ...proposal.moves.map((m) => m.from)]);
    const patch = buildPatchSet(proposal.edits, files, proposal.moves);
    return { patch, warnings: proposal.warnings, subject: `${proposal.oldName} -> ${input.to}`, slug: `${proposal.oldName}-to-${input.to}` };
  }, context);
  return unsure.length > 0 ? RunResponse.parse({ ...response, unsure }) : response;
}

export async function runAnalyzeImpact(input: z.infer<typeof analyzeImpactInput>): Promise<z.infer<typeof AnalyzeImpactResponse>> {
  mark('analyze-impact called');
  return withWorkspace(input, { lock: false }, async (ws) => {
    mark('workspace open');
    warmUp(ws, input);
    const snapshot = await takeSnapshot(ws);
    mark('snapshot taken');
    try {
      const result = await plan(ws, snapshot, await target(ws, input.at), input);
      mark('rename planned');
      const references = [...result.references].sort((a, b) =>
        a.location.file < b.location.file ? -1 : a.location.file > b.location.file ? 1 : a.location.line - b.location.line || a.location.col - b.location.col,
      );
      return {
        status: 'ok',
        schema_version: SCHEMA_VERSION,
        snapshot_id: snapshot.tree,
        symbol: result.symbol,
        references,
        impact: { files_affected: new Set(references.map((r) => r.location.file)).size, references_count: references.length, edits_estimated: result.edits.length },
        warnings: orderWarnings([...ws.warnings, ...result.warnings]),
        ...(result.unsure && result.unsure.length > 0 ? { unsure: result.unsure } : {}),
      };
    } catch (error) {
      if (error instanceof TugError) error.snapshotId ??= snapshot.tree;
      throw error;
    }
  });
}
