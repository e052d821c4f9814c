// move-symbol's Rust branch: lib/rust/move-plan.ts on the snapshot, its edits and new file as one PatchSet.
import { buildPatchSet } from '../../core/patchset.js';
import { withFileOperations } from '../../core/file-ops.js';
import type { OperationContext } from '../operation.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Proposal } from '../change/types.js';
import { orderUnsure } from '../change/unsure.js';
import { snapshotCommit, type Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';
import { configFor, configuredRustAnalyzer } from '../workspace/config.js';

export async function planRustMoveSymbol(
  ws: Workspace,
  snapshot: Snapshot,
  input: { file: string; line: number; column: number; destination: string; keep_reexport?: boolean | undefined },
  context: OperationContext,
): Promise<Proposal> {
  context.progress?.('asking rust-analyzer');
  const { planRustMove } = await import('../../rust/move-plan.js');
  const config = await configFor(ws.repo, {});
  const plan = await planRustMove({
    repo: ws.repo,
    session: ws.session,
    tree: snapshot.tree,
    commit: await snapshotCommit(ws, snapshot),
    target: { file: input.file, line: input.line, col: input.column },
    destination: input.destination,
    keepReexport: input.keep_reexport ?? false,
    rustAnalyzer: configuredRustAnalyzer(config, undefined),
  });
  const sources = await loadSourceFiles(ws.repo, snapshot.tree, [...new Set(plan.edits.map((e) => e.file))]);
  const encoder = new TextEncoder();
  const patch = withFileOperations(buildPatchSet(plan.edits, sources), plan.creates.map((c) => ({ path: c.path, bytes: encoder.encode(c.content) })), []);
  const module = plan.newPath.split('::').slice(0, -1).join('::');
  return {
    patch,
    warnings: plan.warnings,
    unsure: orderUnsure(plan.unsure),
    subject: `${plan.name} -> ${module}`,
    slug: `${plan.name}-to-${module.split('::').slice(1).join('-') || 'root'}`,
    symbol: { name: plan.name, qualified_name: plan.oldPath, file: input.file, line: input.line, col: input.column },
  };
}
