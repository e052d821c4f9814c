// organize-imports' work: Python files through ruff's import rules (the worker's engine first, where it proves the
// same result), a Rust file through rustc's unused_imports and rustfmt, run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { resolveUserPath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { refactorDoors } from '../change/doors.js';
import type { Planner, Proposal } from '../change/types.js';
import { buildPatchSet } from '../../core/patchset.js';
import type { Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';
import { languageOf, unsupportedLanguage } from '../assists/rust.js';
import { isScriptFile } from '../../typescript/files.js';
import { loadSourceFiles } from '../change/source-files.js';
import { snapshotCommit } from '../workspace/snapshot.js';
import { DEFAULT_CHECK_TIMEOUT_MS } from '../../verify/verify.js';
import { planPythonImports } from './python.js';
import { warmPythonFor } from '../assists/python.js';
import { configFor, configuredPython } from '../workspace/config.js';
import type { organizeImportsFields, organizeImportsInput } from './schema.js';

const KIND = { operation: 'organize-imports', slug: 'imports' };

type Target = z.infer<z.ZodObject<typeof organizeImportsFields>> & { no_wait?: boolean | undefined; python?: string | undefined; timeout?: number | undefined };

function planner(input: Target, context: OperationContext): Planner {
  const given = [input.file !== undefined, input.files !== undefined, Boolean(input.all)].filter(Boolean).length;
  if (given !== 1) {
    throw new TugError('InvalidArgument', given === 0 ? 'organize-imports needs file, files or all' : 'give one of file, files and all', { details: { argument: 'file', reason: 'exactly one of file, files and all' } });
  }
  return async (ws, snapshot) => {
    const python = () => configFor(ws.repo, { python: input.python }).then(configuredPython);
    if (input.all) return planPythonImports(ws, snapshot, 'all', await python(), context);
    const named = input.files ?? [input.file!];
    const files = await Promise.all(named.map((file) => resolveUserPath(ws.repo, file, input.files ? 'files' : 'file')));
    if (files.some(isScriptFile)) {
      const mixed = files.find((file) => !isScriptFile(file));
      if (mixed) throw new TugError('InvalidArgument', `organize TypeScript/JavaScript files apart from others (${mixed})`, { details: { argument: 'files', reason: 'one language at a time' } });
      return planTsImportsChange(ws, snapshot, files, context);
    }
    const languages = new Set(files.map(languageOf));
    const other = files.find((file) => languageOf(file) === null);
    if (other) throw unsupportedLanguage(KIND.operation, other, 'Python and Rust');
    if (languages.has('rust')) {
      if (files.length > 1) throw new TugError('InvalidArgument', 'organize one Rust file at a time (rust-analyzer works file by file)', { details: { argument: 'file', reason: 'one Rust file' } });
      return planRustImports(ws, snapshot, files[0]!, input, context);
    }
    return planPythonImports(ws, snapshot, files, await python(), context);
  };
}

/**
 * A Rust file: rustc's unused imports removed and the result formatted as rustfmt would (lib/rust/organize-imports.ts);
 * nothing unused is success with an empty patch, as organize-imports is idempotent.
 */
async function planRustImports(ws: Workspace, snapshot: Snapshot, file: string, input: Target, context: OperationContext): Promise<Proposal> {
  context.progress?.('asking cargo check which imports are unused');
  const { planRustImports: plan } = await import('../../rust/organize-imports.js');
  const result = await plan({
    repo: ws.repo,
    session: ws.session,
    tree: snapshot.tree,
    commit: await snapshotCommit(ws, snapshot),
    file,
    timeoutMs: (input.timeout ?? DEFAULT_CHECK_TIMEOUT_MS / 1000) * 1000,
    noWait: input.no_wait,
  });
  const files = await loadSourceFiles(ws.repo, snapshot.tree, result.edits.map((e) => e.file));
  const formatted = result.mode ? `, rustfmt on the ${result.mode}` : '';
  return {
    patch: buildPatchSet(result.edits, files),
    warnings: [],
    subject: `organize imports in ${file} (${result.removed} unused removed${formatted})`,
    slug: `${KIND.slug}-${file.replace(/\.rs$/, '').replaceAll('/', '-')}`,
    nothingToDoIsSuccess: true,
  };
}

/** TypeScript/JavaScript files: the language service's organizeImports (sort, merge, remove unused); nothing to do is success. */
async function planTsImportsChange(ws: Workspace, snapshot: Snapshot, files: string[], context: OperationContext): Promise<Proposal> {
  context.progress?.('asking the TypeScript language service');
  const { planTsImports } = await import('../../typescript/organize-imports.js');
  const result = await planTsImports(ws.repo, snapshot.tree, files);
  const sources = await loadSourceFiles(ws.repo, snapshot.tree, result.edits.map((e) => e.file));
  const named = files.length === 1 ? files[0]! : `${files.length} files`;
  return {
    patch: buildPatchSet(result.edits, sources),
    warnings: [],
    subject: `organize imports in ${named}`,
    slug: `${KIND.slug}-${named.replace(/\.[cm]?[jt]sx?$/, '').replace(/[/ ]/g, '-')}`,
    nothingToDoIsSuccess: true,
  };
}

/** Named Python files: the worker starts while git takes the snapshot (--all starts ruff's compile instead). */
function startWorker(input: Target) {
  const files = input.all ? [] : (input.files ?? [input.file ?? '']);
  return warmPythonFor(files.find((file) => /\.py$/.test(file)) ?? '', input.python);
}

const doors = refactorDoors<z.infer<typeof organizeImportsInput>>(KIND.operation, planner, startWorker);
export const runOrganizeImports = doors.run;
export const previewOrganizeImports = doors.preview;
