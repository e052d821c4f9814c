// Plans apply_patch: a unified diff over several files becomes one PatchSet (edits, creations, deletions, renames), all or nothing.
import { TugError } from '../../core/errors.js';
import { withFileOperations, type FileCreate } from '../../core/file-ops.js';
import { buildPatchSet, type EditRequest, type FileMove, type SourceFile } from '../../core/patchset.js';
import { decodeText, utf8 } from '../../core/text.js';
import { hunkEdits, parseUnifiedPatch } from '../../core/unified-patch.js';
import { resolveWritePath } from '../../workspace/paths.js';
import type { Proposal } from '../change/types.js';
import { assertCreatable, assertFile, type PlanContext } from './plan-edits.js';
import { loadSourceFiles } from '../change/source-files.js';

export async function planApplyPatch(ctx: PlanContext, input: { patch: string; message?: string | undefined }): Promise<Proposal> {
  const files = parseUnifiedPatch(input.patch);
  const requests: EditRequest[] = [];
  const moves: FileMove[] = [];
  const creates: FileCreate[] = [];
  const deletes: SourceFile[] = [];
  const touched: string[] = [];
  for (const [index, file] of files.entries()) {
    const argument = `patch file ${index + 1}`;
    const oldPath = file.oldPath === null ? null : await resolveWritePath(ctx.ws.repo, file.oldPath, argument);
    const newPath = file.newPath === null ? null : await resolveWritePath(ctx.ws.repo, file.newPath, argument);
    touched.push(newPath ?? oldPath!);
    if (oldPath === null) {
      await assertCreatable(ctx, newPath!, argument);
      const content = hunkEdits(newPath!, '', file.hunks).map((e) => e.new_text).join('');
      creates.push({ path: newPath!, bytes: utf8(content), ...(file.newMode === '100755' ? { mode: '100755' } : {}) });
      continue;
    }
    await assertFile(ctx, oldPath, argument);
    const source = (await loadSourceFiles(ctx.ws.repo, ctx.base.tree, [oldPath], { allowBinary: file.hunks.length === 0 })).get(oldPath)!;
    const edits = file.hunks.length === 0 ? [] : hunkEdits(oldPath, textOf(source), file.hunks);
    if (newPath === null) {
      const rest = applyInMemory(textOf(source), edits);
      if (rest !== '') {
        throw new TugError('AnchorMismatch', `the patch deletes ${oldPath} but its hunks do not remove all of it`, { details: { path: oldPath, reason: 'deletion leaves content' } });
      }
      deletes.push(source);
      continue;
    }
    if (newPath !== oldPath) {
      await assertCreatable(ctx, newPath, argument);
      moves.push({ from: oldPath, to: newPath });
    }
    requests.push(...edits);
  }
  const paths = [...new Set([...requests.map((r) => r.file), ...moves.map((m) => m.from)])];
  const sources = await loadSourceFiles(ctx.ws.repo, ctx.base.tree, paths, { allowBinary: true });
  const patch = withFileOperations(buildPatchSet(requests, sources, moves), creates, deletes);
  const first = [...touched].sort()[0]!;
  const subject = input.message?.trim() || (touched.length === 1 ? `patch ${first}` : `patch ${first} and ${touched.length - 1} more`);
  return { patch, warnings: [], subject, slug: input.message?.trim() || `patch-${first.split('/').pop()}${touched.length > 1 ? `-and-${touched.length - 1}-more` : ''}` };
}

function textOf(source: SourceFile): string {
  const text = decodeText(source.bytes);
  if (!text.ok) throw new TugError('UnsupportedFile', `${source.path} cannot be patched as text (${text.reason})`, { details: { path: source.path, reason: text.reason } });
  return text.text;
}

function applyInMemory(text: string, edits: readonly EditRequest[]): string {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let cursor = 0;
  for (const edit of [...edits].sort((a, b) => a.span!.start - b.span!.start)) {
    parts.push(bytes.subarray(cursor, edit.span!.start), Buffer.from(edit.new_text, 'utf8'));
    cursor = edit.span!.end;
  }
  parts.push(bytes.subarray(cursor));
  return Buffer.concat(parts).toString('utf8');
}
