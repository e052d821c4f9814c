// rust-analyzer's assists as changes: the code action at a range (or over a file), verified in a sandbox and committed like a rename.
import { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { buildPatchSet } from '../../core/patchset.js';
import type { RunResponseJSON } from '../../core/schemas.js';
import { resolveUserPath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { runChange } from '../change/pipeline.js';
import { snapshotCommit } from '../workspace/snapshot.js';
import { loadSourceFiles } from '../change/source-files.js';

export const Range = z
  .string()
  .regex(/^.+:\d+:\d+-\d+:\d+$/, 'FILE:L1:C1-L2:C2, e.g. src/lib.rs:4:13-4:30 (1-based, end exclusive)')
  .describe('The code to extract: FILE:L1:C1-L2:C2, 1-based, the end exclusive (columns count UTF-8 bytes).');
export const At = z.string().regex(/^.+:\d+:\d+$/, 'FILE:LINE:COL (1-based)').describe('What to inline: FILE:LINE:COL of a let binding, a use of it, or a call (1-based).');
export const Name = z.string().min(1).describe('The name of what is created (default: the one rust-analyzer picks).');

export interface AssistKind {
  operation: string;
  assists: readonly string[];
  slug: string;
}

export async function runAssist(kind: AssistKind, input: Record<string, unknown> & { range?: string; at?: string; file?: string; name?: string; rust_analyzer?: string; no_wait?: boolean }, context: OperationContext): Promise<RunResponseJSON> {
  const spec = input.range ?? (input.file !== undefined ? `${input.file}:1:1-1:1` : `${input.at}-0:0`);
  const match = /^(.+):(\d+):(\d+)-(\d+):(\d+)$/.exec(spec)!;
  return runChange(input as never, { operation: kind.operation, scope: kind.operation }, async (ws, snapshot) => {
    const file = await resolveUserPath(ws.repo, match[1]!, input.range ? 'range' : input.file !== undefined ? 'file' : 'at');
    if (!file.endsWith('.rs')) {
      throw new TugError('UnsupportedOperation', `${kind.operation} supports Rust files; ${file} is not one`, { details: { operation: kind.operation, reason: 'unsupported language' } });
    }
    const start = { line: Number(match[2]), col: Number(match[3]) };
    const end = input.range ? { line: Number(match[4]), col: Number(match[5]) } : start;
    context.progress?.('asking rust-analyzer');
    const { planRustAssist } = await import('../../rust/assists.js');
    const plan = await planRustAssist({
      repo: ws.repo,
      session: ws.session,
      tree: snapshot.tree,
      commit: await snapshotCommit(ws, snapshot),
      operation: kind.operation,
      assists: kind.assists,
      file,
      start,
      end,
      wholeFile: input.file !== undefined,
      name: input.name,
      rustAnalyzer: input.rust_analyzer,
      noWait: input.no_wait,
    });
    const files = await loadSourceFiles(ws.repo, snapshot.tree, [...plan.edits.map((e) => e.file), ...plan.moves.map((m) => m.from)]);
    const patch = buildPatchSet(plan.edits, files, plan.moves);
    return { patch, warnings: plan.warnings, subject: `${plan.title} in ${file}`, slug: `${kind.slug}-${input.name ?? path(file)}` };
  }, context);
}

function path(file: string): string {
  return file.replace(/\.rs$/, '').replaceAll('/', '-');
}

export const rustAnalyzerField = { rust_analyzer: z.string().optional().describe('rust-analyzer binary (default: $TUG_RA_PATH, PATH, then the one `tug toolchain rust setup` installed).') };
