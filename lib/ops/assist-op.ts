// `extract-variable`, `extract-function`, `inline` for .rs files: rust-analyzer's assists, verified in a sandbox and committed like a rename.
import { z } from 'zod';
import { TugError } from '../core/errors.js';
import { buildPatchSet } from '../core/patchset.js';
import { RunResponse, type RunResponseJSON } from '../core/schemas.js';
import { resolveUserPath } from '../workspace/paths.js';
import { ChangeFields, CommonFields, defineOperation, type OperationContext } from './operation.js';
import { runChange } from './pipeline.js';
import { snapshotCommit } from './snapshot-service.js';
import { loadSourceFiles } from './source-files.js';

const Range = z
  .string()
  .regex(/^.+:\d+:\d+-\d+:\d+$/, 'FILE:L1:C1-L2:C2, e.g. src/lib.rs:4:13-4:30 (1-based, end exclusive)')
  .describe('The code to extract: FILE:L1:C1-L2:C2, 1-based, the end exclusive (columns count UTF-8 bytes).');
const At = z.string().regex(/^.+:\d+:\d+$/, 'FILE:LINE:COL (1-based)').describe('What to inline: FILE:LINE:COL of a let binding, a use of it, or a call (1-based).');
const Name = z.string().min(1).describe('The name of what is created (default: the one rust-analyzer picks).');

interface AssistKind {
  operation: string;
  assists: readonly string[];
  slug: string;
}

async function runAssist(kind: AssistKind, input: Record<string, unknown> & { range?: string; at?: string; file?: string; name?: string; rust_analyzer?: string; no_wait?: boolean }, context: OperationContext): Promise<RunResponseJSON> {
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
    const { planRustAssist } = await import('../rust/assists.js');
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

const rustAnalyzerField = { rust_analyzer: z.string().optional().describe('rust-analyzer binary (default: $TUG_RA_PATH, PATH, then the one `tug toolchain rust setup` installed).') };

export const extractVariableOperation = defineOperation({
  name: 'extract-variable',
  tool: 'tug_extract_variable',
  description: 'Rust (rust-analyzer\'s extract_variable assist): bind the expression at --range to a new local before its statement and use it there. Verified in a sandbox (cargo check), committed on tug/extract-variable/<name>.',
  input: z.object({ ...CommonFields, ...ChangeFields, range: Range, name: Name.optional(), ...rustAnalyzerField }),
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  execute: (input, context) => runAssist({ operation: 'extract-variable', assists: ['extract_variable'], slug: 'variable' }, input, context),
});

export const extractFunctionOperation = defineOperation({
  name: 'extract-function',
  tool: 'tug_extract_function',
  description: 'Rust (rust-analyzer\'s extract_function assist): move the statements or expression at --range into a new function and call it there. Verified in a sandbox (cargo check), committed on tug/extract-function/<name>.',
  input: z.object({ ...CommonFields, ...ChangeFields, range: Range, name: Name.optional(), ...rustAnalyzerField }),
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  execute: (input, context) => runAssist({ operation: 'extract-function', assists: ['extract_function'], slug: 'function' }, input, context),
});

export const inlineOperation = defineOperation({
  name: 'inline',
  tool: 'tug_inline',
  description: 'Rust (rust-analyzer\'s inline_local_variable, else inline_call): replace the local or the call at --at by its value or body. Verified in a sandbox (cargo check), committed on tug/inline/<file>.',
  input: z.object({ ...CommonFields, ...ChangeFields, at: At, ...rustAnalyzerField }),
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  execute: (input, context) => runAssist({ operation: 'inline', assists: ['inline_local_variable', 'inline_call'], slug: 'inline' }, input, context),
});

export const organizeImportsOperation = defineOperation({
  name: 'organize-imports',
  tool: 'tug_organize_imports',
  description: 'Rust (rust-analyzer\'s remove_unused_imports over the whole --file): remove the `use` items and names nothing uses. Verified in a sandbox (cargo check), committed on tug/organize-imports/<file>.',
  input: z.object({ ...CommonFields, ...ChangeFields, file: z.string().min(1).describe('The .rs file whose imports to clean up, relative to the workspace.'), ...rustAnalyzerField }),
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  execute: (input, context) => runAssist({ operation: 'organize-imports', assists: ['remove_unused_imports'], slug: 'imports' }, input, context),
});
