// Wires the Python and Rust rename plans into the change pipeline (run) and into a read-only report (analyze-impact).
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { buildPatchSet } from '../../core/patchset.js';
import { RunResponse, SCHEMA_VERSION, type RunResponseJSON, type WarningJSON } from '../../core/schemas.js';
import { startPythonEarly } from '../../python/load-project.js';
import { planPythonRename } from '../../python/rename-plan.js';
import type { RenamePlan, RenameTarget } from '../../python/plan-types.js';
import { resolveUserPath } from '../../workspace/paths.js';
import { MAX_POSITION, type OperationContext } from '../operation.js';
import { runChange } from '../change/pipeline.js';
import { orderWarnings } from '../change/present.js';
import type { RenameImpact, renameImpactInput, renameInput } from './schema.js';
import { snapshotCommit, takeSnapshot, type Snapshot } from '../workspace/snapshot.js';
import { loadSourceFiles } from '../change/source-files.js';
import { withWorkspace, type Workspace } from '../workspace/workspace.js';
import { configFor, configuredPython, configuredRustAnalyzer } from '../workspace/config.js';
import { mark } from '../../core/timing.js';
import { isScriptFile } from '../../typescript/files.js';

type Language = 'python' | 'rust' | 'typescript';

async function target(ws: Workspace, at: Position): Promise<RenameTarget & { language: Language }> {
  const file = await resolveUserPath(ws.repo, at.file, 'file');
  const language: Language | null = /\.pyi?$/.test(file) ? 'python' : file.endsWith('.rs') ? 'rust' : isScriptFile(file) ? 'typescript' : null;
  if (!language) {
    throw new TugError('UnsupportedOperation', `rename-symbol supports Python, Rust, TypeScript and JavaScript files; ${file} is none of them`, { details: { operation: 'rename-symbol', reason: 'unsupported language' } });
  }
  // Files have far fewer lines than this; a bigger number would also not survive the JSON error's location.
  if (!(at.line >= 1 && at.column >= 1 && at.line <= MAX_POSITION && at.column <= MAX_POSITION)) {
    throw new TugError('InvalidPosition', `${file}:${at.line}:${at.column} is not a position (lines and columns start at 1)`, { details: { path: file, line: at.line, col: at.column } });
  }
  return { file, line: at.line, col: at.column, language };
}

type Position = { file: string; line: number; column: number };

/** What both adapters answer with. */
type LanguagePlan = Pick<RenamePlan, 'symbol' | 'references' | 'edits' | 'moves' | 'warnings' | 'oldName'> & { unsure?: RunResponseJSON['unsure']; check?: () => Promise<void> };

type RenameOptions = {
  new_name: string;
  python?: string | undefined;
  rust_analyzer?: string | undefined;
  no_wait?: boolean | undefined;
  rename_strings?: boolean | undefined;
  rename_comments?: boolean | undefined;
  include_unsure?: boolean | undefined;
  keep_alias?: boolean | undefined;
  include?: string[] | undefined;
  exclude?: string[] | undefined;
  safety?: 'strict' | 'normal' | 'aggressive' | undefined;
};

/** The language adapter's plan for a rename; Python is tug's own analyzer, Rust is rust-analyzer. */
async function plan(ws: Workspace, snapshot: Snapshot, at: RenameTarget & { language: Language }, input: RenameOptions, check: boolean | 'later' = false, configWarnings?: WarningJSON[]): Promise<LanguagePlan> {
  const config = await configFor(ws.repo, { python: input.python, include: input.include, exclude: input.exclude, safety: input.safety }, configWarnings);
  const aggressive = config.safety_mode === 'aggressive';
  if (at.language === 'typescript') return planTypeScript(ws, snapshot, at, input, check, config);
  if (at.language === 'rust') {
    if (config.include.length > 0 || config.exclude.length > 0) {
      // rust-analyzer renames every reference the compiler sees; leaving some out would break the build.
      throw new TugError('InvalidArgument', 'include/exclude globs apply to Python analysis; a Rust rename changes every reference rust-analyzer finds', {
        details: { argument: input.include?.length ? 'include' : input.exclude?.length ? 'exclude' : config.sources['include'] ?? config.sources['exclude'] ?? 'include', reason: 'Python only' },
      });
    }
    const { planRustRename } = await import('../../rust/rename-plan.js');
    if (input.rename_strings || input.rename_comments || input.keep_alias) {
      const argument = input.rename_strings ? 'rename_strings' : input.rename_comments ? 'rename_comments' : 'keep_alias';
      throw new TugError('InvalidArgument', `${argument} applies to Python renames only`, { details: { argument, reason: 'Python only' } });
    }
    if (input.safety && input.safety !== 'strict') {
      throw new TugError('InvalidArgument', `--safety ${input.safety} applies to Python renames; rust-analyzer decides what a Rust position means`, { details: { argument: 'safety', reason: 'Python only' } });
    }
    return planRustRename({
      repo: ws.repo,
      session: ws.session,
      tree: snapshot.tree,
      commit: await snapshotCommit(ws, snapshot),
      target: at,
      newName: input.new_name,
      rustAnalyzer: configuredRustAnalyzer(config, input.rust_analyzer),
      noWait: input.no_wait,
      includeUnsure: input.include_unsure,
    });
  }
  return planPythonRename(ws.repo, ws.session, snapshot.tree, at, input.new_name, {
    python: configuredPython(config),
    selection: { include: config.include, exclude: config.exclude },
    renameStrings: input.rename_strings ?? aggressive,
    renameComments: input.rename_comments ?? aggressive,
    proceedOnAmbiguity: config.safety_mode !== 'strict',
    check: check !== false,
    includeUnsure: input.include_unsure,
    keepAlias: input.keep_alias,
  });
}

/** The TypeScript language service decides what a position means and finds every place; Python's options do not apply. */
async function planTypeScript(ws: Workspace, snapshot: Snapshot, at: RenameTarget, input: RenameOptions, check: boolean | 'later', config: Awaited<ReturnType<typeof configFor>>): Promise<LanguagePlan> {
  const pythonOnly = input.rename_strings ? 'rename_strings' : input.rename_comments ? 'rename_comments' : input.keep_alias ? 'keep_alias' : input.safety && input.safety !== 'strict' ? 'safety' : null;
  if (pythonOnly) throw new TugError('InvalidArgument', `${pythonOnly} applies to Python renames only`, { details: { argument: pythonOnly, reason: 'Python only' } });
  if (config.include.length > 0 || config.exclude.length > 0) {
    // The language service renames every reference its programs see; leaving some out would break the build.
    throw new TugError('InvalidArgument', 'include/exclude globs apply to Python analysis; a TypeScript rename changes every reference the language service finds', {
      details: { argument: input.include?.length ? 'include' : input.exclude?.length ? 'exclude' : config.sources['include'] ?? config.sources['exclude'] ?? 'include', reason: 'Python only' },
    });
  }
  // At a module specifier (`'./money.js'`) the module itself is renamed: its file (or an index module's directory) moves.
  const { isModuleSpecifierAt, planTsFileRename } = await import('../../typescript/file-rename.js');
  const source = (await loadSourceFiles(ws.repo, snapshot.tree, [at.file])).get(at.file)!;
  if (isModuleSpecifierAt(at.file, source.bytes, at.line, at.col)) return planTsFileRename({ repo: ws.repo, tree: snapshot.tree, target: at, newName: input.new_name });
  const { planTsRename } = await import('../../typescript/rename-plan.js');
  return planTsRename({ repo: ws.repo, tree: snapshot.tree, target: at, newName: input.new_name, includeUnsure: input.include_unsure, check });
}

/**
 * A Python rename on an empty facts cache parses every file, and the interpreter takes longer to start than
 * the snapshot takes: start it first. Fire and forget; the plan reports any problem with the interpreter.
 */
function warmUp(ws: Workspace, input: RenameOptions & Position): void {
  if (!/\.pyi?$/.test(input.file)) return;
  const python = configFor(ws.repo, { python: input.python }).then(configuredPython);
  startPythonEarly(ws.session, python).catch(() => undefined);
}

export async function runRename(input: z.infer<typeof renameInput>, context: OperationContext): Promise<RunResponseJSON> {
  return runChange(input, { operation: 'rename-symbol', scope: 'rename', warmUp: (ws) => warmUp(ws, input) }, async (ws, snapshot, base) => {
    const at = await target(ws, input);
    context.progress?.(at.language === 'rust' ? 'asking rust-analyzer' : at.language === 'typescript' ? 'asking the TypeScript language service' : 'analysing Python files');
    // A rename that is committed is first proven complete on the renamed code (IncompleteRename otherwise); a TypeScript
    // plan may leave that proof to the pipeline, which runs it while git writes the result's objects.
    const proposal = await plan(ws, snapshot, at, input, base.checkLater ? 'later' : true);
    mark('rename planned');
    const files = await loadSourceFiles(ws.repo, snapshot.tree, [...proposal.edits.map((e) => e.file), ...proposal.moves.map((m) => m.from)]);
    const patch = buildPatchSet(proposal.edits, files, proposal.moves);
    mark('patch built');
    const { location, id, kind } = proposal.symbol;
    // Python ids name the module and qualified path, so they hold on another tree; rust-analyzer's are positions.
    const symbol = { name: proposal.oldName, ...(at.language === 'python' ? { id } : {}), kind, file: location.file, line: location.line, col: location.col };
    return { patch, warnings: proposal.warnings, unsure: proposal.unsure ?? [], subject: `${proposal.oldName} -> ${input.new_name}`, slug: `${proposal.oldName}-to-${input.new_name}`, symbol, ...(proposal.check ? { check: proposal.check } : {}) };
  }, context);
}

export async function runRenameImpact(input: z.infer<typeof renameImpactInput>): Promise<z.infer<typeof RenameImpact>> {
  mark('analyze-impact called');
  return withWorkspace(input, { lock: false }, async (ws) => {
    mark('workspace open');
    warmUp(ws, input);
    const snapshot = await takeSnapshot(ws);
    mark('snapshot taken');
    try {
      // The configuration's warnings (unknown keys, untrusted settings) come from the read the plan makes anyway.
      const result = await plan(ws, snapshot, await target(ws, input), input, false, ws.warnings);
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
