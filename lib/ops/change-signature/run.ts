// change-signature's work: the Python plan on the snapshot, run through the change road or shown by analyze-impact.
import { isScriptFile } from '../../typescript/files.js';
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { buildPatchSet } from '../../core/patchset.js';
import { loadPythonProject, withPythonProject, type LoadedProject } from '../../python/load-project.js';
import { identifierAt } from '../../python/candidates.js';
import { lineStarts, offsetOf } from '../../core/text.js';
import { planSignatureOn } from '../../python/change-signature/plan.js';
import { targetPython } from '../../python/target-python.js';
import { completeSignature } from '../../python/change-signature/examples.js';
import { resolveUserPath } from '../../workspace/paths.js';
import { MAX_POSITION, type OperationContext } from '../operation.js';
import { refactorDoors } from '../change/doors.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Planner, Proposal } from '../change/types.js';
import { orderUnsure } from '../change/unsure.js';
import { snapshotCommit, type Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';
import { warmPythonFor } from '../assists/python.js';
import { configFor, configuredPython, configuredRustAnalyzer } from '../workspace/config.js';
import type { changeSignatureInput } from './schema.js';

type Input = z.infer<typeof changeSignatureInput>;

function planner(input: Input, context: OperationContext): Planner {
  return async (ws, snapshot) => {
    const file = await resolveUserPath(ws.repo, input.file, 'file');
    if (!/\.pyi?$/.test(file) && !file.endsWith('.rs') && !isScriptFile(file)) throw new TugError('UnsupportedOperation', `change-signature supports Python, Rust and TypeScript/JavaScript files; ${file} is not one`, { details: { operation: 'change-signature', reason: 'unsupported language' } });
    if (!(input.line >= 1 && input.column >= 1 && input.line <= MAX_POSITION && input.column <= MAX_POSITION)) {
      throw new TugError('InvalidPosition', `${file}:${input.line}:${input.column} is not a position (lines and columns start at 1)`, { details: { path: file, line: input.line, col: input.column } });
    }
    if (file.endsWith('.rs')) return planRust(ws, snapshot, file, input, context);
    if (isScriptFile(file)) return planTypeScript(ws, snapshot, file, input, context);
    const config = await configFor(ws.repo, { python: input.python });
    const python = configuredPython(config);
    const target = await targetPython(ws.repo, snapshot.tree);
    context.progress?.('analysing the Python project');
    // Only the files that mention the function's name can call it (withPythonProject proves the load complete).
    const at = { file, line: input.line, col: input.column };
    // The docs' examples need the worker again: they come once, after the rounds that settle which files to load.
    const probe = (loaded: LoadedProject) => planSignatureOn(loaded, { session: ws.session, python, target }, at, input.new_params, input.force ?? false);
    const finish = (loaded: LoadedProject, code: Awaited<ReturnType<typeof probe>>) => completeSignature({ repo: ws.repo, tree: snapshot.tree, session: ws.session, python }, loaded, code);
    // `__init__` is called by its class's name, which files that never write `__init__` use: it reads every file.
    const plan = (await atInit(ws, snapshot.tree, file, input.line, input.column))
      ? await loadPythonProject(ws.repo, ws.session, snapshot.tree, python).then(async (loaded) => finish(loaded, await probe(loaded)))
      : await withPythonProject(ws.repo, ws.session, snapshot.tree, python, { at }, probe, finish);
    const files = await loadSourceFiles(ws.repo, snapshot.tree, [...new Set(plan.edits.map((e) => e.file))]);
    return {
      patch: buildPatchSet(plan.edits, files),
      warnings: plan.warnings,
      unsure: plan.unsure,
      subject: `${plan.name}(${input.new_params.map((p) => p.name).join(', ')}) (${plan.calls} call${plan.calls === 1 ? '' : 's'})`,
      slug: `signature-${plan.name}`,
      symbol: { name: plan.name, file, line: input.line, col: input.column },
    };
  };
}

/** Whether the position is on the name `__init__`. */
async function atInit(ws: Workspace, tree: string, file: string, line: number, col: number): Promise<boolean> {
  const bytes = (await loadSourceFiles(ws.repo, tree, [file]).catch(() => new Map())).get(file)?.bytes as Uint8Array | undefined;
  const offset = bytes ? offsetOf(bytes, lineStarts(bytes), line, col) : null;
  return bytes !== undefined && offset !== null && identifierAt(bytes, offset) === '__init__';
}

/** A Rust fn or method: lib/rust/change-signature.ts on rust-analyzer's references. */
async function planRust(ws: Workspace, snapshot: Snapshot, file: string, input: Input, context: OperationContext): Promise<Proposal> {
  context.progress?.('asking rust-analyzer');
  const { planRustSignature } = await import('../../rust/change-signature.js');
  const config = await configFor(ws.repo, {});
  const plan = await planRustSignature({
    repo: ws.repo,
    session: ws.session,
    tree: snapshot.tree,
    commit: await snapshotCommit(ws, snapshot),
    target: { file, line: input.line, col: input.column },
    rustAnalyzer: configuredRustAnalyzer(config, undefined),
    params: input.new_params,
    force: input.force ?? false,
  });
  const files = await loadSourceFiles(ws.repo, snapshot.tree, [...new Set(plan.edits.map((e) => e.file))]);
  return {
    patch: buildPatchSet(plan.edits, files),
    warnings: [],
    unsure: orderUnsure(plan.unsure),
    subject: `${plan.name}(${input.new_params.map((p) => p.name).join(', ')}) (${plan.calls} call${plan.calls === 1 ? '' : 's'})`,
    slug: `signature-${plan.name}`,
  };
}

/** A TypeScript/JavaScript function, method or constructor: lib/typescript/change-signature.ts on the language service's references. */
async function planTypeScript(ws: Workspace, snapshot: Snapshot, file: string, input: Input, context: OperationContext): Promise<Proposal> {
  context.progress?.('asking the TypeScript language service');
  const { planTsSignature } = await import('../../typescript/change-signature.js');
  const plan = await planTsSignature({ repo: ws.repo, tree: snapshot.tree, target: { file, line: input.line, col: input.column }, params: input.new_params, force: input.force ?? false });
  const files = await loadSourceFiles(ws.repo, snapshot.tree, [...new Set(plan.edits.map((e) => e.file))]);
  return {
    patch: buildPatchSet(plan.edits, files),
    warnings: plan.warnings,
    unsure: orderUnsure(plan.unsure),
    subject: `${plan.name}(${input.new_params.map((p) => p.name).join(', ')}) (${plan.calls} call${plan.calls === 1 ? '' : 's'})`,
    slug: `signature-${plan.name}`,
    symbol: { name: plan.name, file, line: input.line, col: input.column },
  };
}

const doors = refactorDoors<Input>('change-signature', planner, (input) => warmPythonFor(input.file, input.python));
export const runChangeSignature = doors.run;
export const previewChangeSignature = doors.preview;
