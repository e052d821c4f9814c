// rust-analyzer's assists as proposals: the code action at a range (or over a whole file), turned into a PatchSet the
// change road verifies and commits like any refactor.
import { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { isScriptFile } from '../../typescript/files.js';
import { buildPatchSet } from '../../core/patchset.js';
import type { OperationContext } from '../operation.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Proposal } from '../change/types.js';
import { snapshotCommit, type Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';
import { configFor, configuredRustAnalyzer } from '../workspace/config.js';

export interface AssistKind {
  operation: string;
  /** rust-analyzer's assist ids, tried in order. */
  assists: readonly string[];
  slug: string;
}

/** Where the assist applies: a range, a position (start = end), or the whole file (no line). */
export interface AssistTarget {
  line?: number | undefined;
  column?: number | undefined;
  end_line?: number | undefined;
  end_column?: number | undefined;
  new_name?: string | undefined;
  rust_analyzer?: string | undefined;
  no_wait?: boolean | undefined;
}

export const rustAnalyzerField = {
  rust_analyzer: z.string().optional().describe('Rust: rust-analyzer binary (default: $TUG_RA_PATH, PATH, then the one `tug toolchain rust setup` installed).'),
};

/** The source language of a workspace path, by its extension; the operation refuses the others by name. */
export function languageOf(file: string): 'python' | 'rust' | null {
  return /\.pyi?$/.test(file) ? 'python' : file.endsWith('.rs') ? 'rust' : null;
}

export function unsupportedLanguage(operation: string, file: string, supported: string): TugError {
  // TypeScript/JavaScript has an adapter (rename-symbol), which does not offer this refactor yet.
  if (isScriptFile(file)) {
    return new TugError('UnsupportedByAdapter', `${operation} is not available for TypeScript/JavaScript yet; ${file} is one (the TypeScript adapter offers rename-symbol, move-symbol, organize-imports, extract-variable, extract-function, inline and change-signature)`, {
      details: { operation, language: 'typescript', offered: ['rename-symbol', 'move-symbol', 'organize-imports', 'extract-variable', 'extract-function', 'inline', 'change-signature'] },
    });
  }
  return new TugError('UnsupportedOperation', `${operation} supports ${supported} files; ${file} is not one`, { details: { operation, reason: 'unsupported language' } });
}

export async function planRustAssistChange(ws: Workspace, snapshot: Snapshot, kind: AssistKind, file: string, target: AssistTarget, context: OperationContext): Promise<Proposal> {
  const wholeFile = target.line === undefined;
  const start = { line: target.line ?? 1, col: target.column ?? 1 };
  const end = target.end_line !== undefined ? { line: target.end_line, col: target.end_column ?? 1 } : start;
  const config = await configFor(ws.repo, {});
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
    wholeFile,
    name: target.new_name,
    rustAnalyzer: configuredRustAnalyzer(config, target.rust_analyzer),
    noWait: target.no_wait,
  });
  const files = await loadSourceFiles(ws.repo, snapshot.tree, [...plan.edits.map((e) => e.file), ...plan.moves.map((m) => m.from)]);
  const patch = buildPatchSet(plan.edits, files, plan.moves);
  return { patch, warnings: plan.warnings, subject: `${plan.title} in ${file}`, slug: `${kind.slug}-${target.new_name ?? file.replace(/\.rs$/, '').replaceAll('/', '-')}` };
}
