// Plans for the agent file tools (edit, write, create, delete, move): the caller's paths checked, the base read, one PatchSet.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../../core/errors.js';
import { withFileOperations, type FileCreate } from '../../core/file-ops.js';
import { buildPatchSet, type EditRequest, type FileMove, type PatchSet } from '../../core/patchset.js';
import { conformContent, replaceOnce, rewriteEdits, textStyle } from '../../core/text-edits.js';
import { decodeText, utf8 } from '../../core/text.js';
import { ignoredPaths } from '../../git/ignore.js';
import { entriesAt } from '../../git/snapshot.js';
import { resolveWritePath } from '../../workspace/paths.js';
import type { ChangeBase, Proposal } from '../change/types.js';
import { assertFileSize } from './limits.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Workspace } from '../workspace/workspace.js';

/** Whether the working tree matters for this call: only when the result is applied to it. */
export interface PlanContext {
  ws: Workspace;
  base: ChangeBase;
  apply: boolean;
}

function base(name: string): string {
  return name.split('/').pop() ?? name;
}

function proposal(patch: PatchSet, subject: string, slug: string): Proposal {
  return { patch, warnings: [], subject, slug };
}

async function textOf(ctx: PlanContext, file: string): Promise<{ text: string; bytes: Uint8Array }> {
  const files = await loadSourceFiles(ctx.ws.repo, ctx.base.tree, [file]);
  const bytes = files.get(file)!.bytes;
  const text = decodeText(bytes);
  if (!text.ok) throw new TugError('UnsupportedFile', `${file} cannot be edited as text (${text.reason})`, { details: { path: file, reason: text.reason } });
  return { text: text.text, bytes };
}

/** What is at `file` in the base: a file, a directory, nothing; a file in the way of one of its parent directories is an error. */
async function kindAt(ctx: PlanContext, file: string, argument: string): Promise<'file' | 'dir' | 'none'> {
  const parents = file.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  const entries = await entriesAt(ctx.ws.repo, ctx.base.tree, [...parents, file]);
  for (const parent of parents) {
    if (entries.get(parent)?.type === 'blob') {
      throw new TugError('InvalidArgument', `${argument} ${file}: ${parent} is a file, not a directory`, { details: { argument, path: file, reason: 'parent is a file' } });
    }
    if (entries.get(parent)?.type === 'commit') {
      throw new TugError('InvalidArgument', `${argument} ${file}: ${parent} is a submodule; tug does not write inside it`, { details: { argument, path: file, reason: 'inside a submodule' } });
    }
  }
  const entry = entries.get(file);
  // Edits hold the whole file in memory, twice: past the one-file budget the tool stops before reading it.
  if (entry?.type === 'blob') assertFileSize(file, entry.size);
  if (entry?.type === 'commit') {
    throw new TugError('UnsupportedFile', `${file} is a submodule (gitlink), not a file`, { details: { path: file, reason: 'submodule' } });
  }
  return entry === undefined ? 'none' : entry.type === 'tree' ? 'dir' : 'file';
}

/** A path the change will create: nothing there in the base (nor on disk when applying), and not ignored by git. */
export async function assertCreatable(ctx: PlanContext, file: string, argument: string): Promise<void> {
  const kind = await kindAt(ctx, file, argument);
  if (kind === 'dir') throw new TugError('InvalidArgument', `${argument} ${file} is a directory`, { details: { argument, path: file, reason: 'is a directory' } });
  const where = ctx.base.onto ? `on ${ctx.base.onto}` : 'in the workspace';
  if (kind === 'file') throw new TugError('FileExists', `${file} already exists ${where}`, { details: { path: file } });
  if ((await ignoredPaths(ctx.ws.repo, [file])).has(file)) {
    throw new TugError('InvalidArgument', `${argument} ${file} is ignored by .gitignore; tug only creates files git would track`, { details: { argument, path: file, reason: 'ignored' } });
  }
  if (ctx.apply && (await lstat(path.join(ctx.ws.repo.root, file)).then(() => true, () => false))) {
    throw new TugError('FileExists', `${file} already exists on disk`, { details: { path: file, reason: 'present in the working tree' } });
  }
}

export async function assertFile(ctx: PlanContext, file: string, argument: string): Promise<void> {
  const kind = await kindAt(ctx, file, argument);
  if (kind === 'dir') throw new TugError('InvalidArgument', `${argument} ${file} is a directory, not a file`, { details: { argument, path: file, reason: 'is a directory' } });
  if (kind === 'none') {
    const where = ctx.base.onto ? `on ${ctx.base.onto}` : 'in the workspace (or it is ignored by git)';
    throw new TugError('FileNotFound', `${file} is not ${where}`, { details: { path: file } });
  }
}

export async function planEditFile(ctx: PlanContext, input: { path: string; old_text: string; new_text: string; display_description?: string | undefined }): Promise<Proposal> {
  const file = await resolveWritePath(ctx.ws.repo, input.path, 'path');
  await assertFile(ctx, file, 'path');
  const { text } = await textOf(ctx, file);
  const edit = replaceOnce(file, text, input.old_text, input.new_text);
  const patch = buildPatchSet([edit], await loadSourceFiles(ctx.ws.repo, ctx.base.tree, [file]));
  return proposal(patch, input.display_description?.trim() || `edit ${file}`, `edit-${base(file)}`);
}

export async function planWriteFile(ctx: PlanContext, input: { path: string; content: string; overwrite?: boolean | undefined }): Promise<Proposal> {
  const file = await resolveWritePath(ctx.ws.repo, input.path, 'path');
  const kind = await kindAt(ctx, file, 'path');
  if (kind === 'dir') throw new TugError('InvalidArgument', `path ${file} is a directory`, { details: { argument: 'path', path: file, reason: 'is a directory' } });
  if (kind === 'none') return planCreateFile(ctx, input, 'write');
  if (input.overwrite === false) {
    const where = ctx.base.onto ? `on ${ctx.base.onto}` : 'in the workspace';
    throw new TugError('FileExists', `${file} already exists ${where} and overwrite is false`, { details: { path: file, reason: 'overwrite: false' } });
  }
  const { text } = await textOf(ctx, file);
  const edits: EditRequest[] = rewriteEdits(file, text, conformContent(input.content, textStyle(text)));
  const patch = buildPatchSet(edits, await loadSourceFiles(ctx.ws.repo, ctx.base.tree, [file]));
  return proposal(patch, `write ${file}`, `write-${base(file)}`);
}

export async function planCreateFile(ctx: PlanContext, input: { path: string; content: string }, verb = 'create'): Promise<Proposal> {
  const file = await resolveWritePath(ctx.ws.repo, input.path, 'path');
  await assertCreatable(ctx, file, 'path');
  const create: FileCreate = { path: file, bytes: utf8(input.content) };
  const patch = withFileOperations({ edits: [], files: [], moves: [] }, [create], []);
  return proposal(patch, `${verb} ${file}`, `${verb}-${base(file)}`);
}

export async function planDeleteFile(ctx: PlanContext, input: { path: string; confirm?: boolean | undefined }): Promise<Proposal> {
  const file = await resolveWritePath(ctx.ws.repo, input.path, 'path');
  if (input.confirm === false) {
    throw new TugError('InvalidArgument', `delete_file ${file} was not confirmed (confirm: false); nothing was deleted`, { details: { argument: 'confirm', path: file, reason: 'not confirmed' } });
  }
  await assertFile(ctx, file, 'path');
  const source = (await loadSourceFiles(ctx.ws.repo, ctx.base.tree, [file], { allowBinary: true })).get(file)!;
  const patch = withFileOperations({ edits: [], files: [], moves: [] }, [], [source]);
  return proposal(patch, `delete ${file}`, `delete-${base(file)}`);
}

export async function planMoveFile(ctx: PlanContext, input: { source_path: string; destination_path: string }): Promise<Proposal> {
  const from = await resolveWritePath(ctx.ws.repo, input.source_path, 'source_path');
  const to = await resolveWritePath(ctx.ws.repo, input.destination_path, 'destination_path');
  if (from === to) throw new TugError('InvalidArgument', 'source_path and destination_path are the same file', { details: { argument: 'destination_path', reason: 'same path' } });
  await assertFile(ctx, from, 'source_path');
  await assertCreatable(ctx, to, 'destination_path');
  const move: FileMove = { from, to };
  const patch = buildPatchSet([], await loadSourceFiles(ctx.ws.repo, ctx.base.tree, [from], { allowBinary: true }), [move]);
  return proposal(patch, `move ${from} -> ${to}`, `move-${base(from)}-to-${base(to)}`);
}
