// Turns a patchset file into a PatchSet: validated paths, snapshot contents, anchors resolved.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { buildPatchSet, type EditRequest } from '../../core/patchset.js';
import { resolveWritePath } from '../../workspace/paths.js';
import type { PatchSetFile } from './schema.js';
import type { Proposal } from '../change/types.js';
import type { Snapshot } from '../workspace/snapshot.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Workspace } from '../workspace/workspace.js';

export async function planPatchset(ws: Workspace, snapshot: Snapshot, file: z.infer<typeof PatchSetFile>): Promise<Proposal> {
  const requests: EditRequest[] = [];
  // Checked once per distinct path (each check walks the path on disk): thousands of edits name a few hundred files.
  const resolved = new Map<string, string>();
  for (const [index, edit] of file.edits.entries()) {
    let relative = resolved.get(edit.file);
    if (relative === undefined) {
      rejectUnplain(edit.file, `edits[${index}].file`);
      relative = await resolveWritePath(ws.repo, edit.file, `edits[${index}].file`);
      resolved.set(edit.file, relative);
    }
    requests.push({ ...edit, file: relative } as EditRequest);
  }
  const files = await loadSourceFiles(ws.repo, snapshot.tree, requests.map((r) => r.file));
  const patch = buildPatchSet(requests, files, [], { rejectDuplicates: true });
  const names = patch.files.map((f) => f.path);
  const first = names[0] ?? 'files';
  const subject = file.message ?? `edit ${names.length === 1 ? first : `${first} and ${names.length - 1} more`}`;
  const slug = file.message ?? `${first.split('/').pop()}-${patch.edits.length}-edit${patch.edits.length === 1 ? '' : 's'}`;
  return { patch, warnings: [], subject, slug };
}

/**
 * An edit's path is taken as written or refused: `./x`, `a//b`, `a/./b` and `a\\b` used to be normalised silently, so a
 * result (branch, files_written, log) named another path than the one the caller gave. The stricter choice: the caller
 * learns the plain form from the error instead of guessing what tug made of the path.
 */
function rejectUnplain(input: string, argument: string): void {
  const segments = input.split(/[\\/]/);
  // Absolute paths, a trailing slash and `..` are refused later with their own reasons.
  if (/^([\\/]|[a-zA-Z]:)/.test(input)) return;
  const body = segments.length > 1 && segments[segments.length - 1] === '' ? segments.slice(0, -1) : segments;
  if (!input.includes('\\') && body.every((s) => s !== '' && s !== '.')) return;
  const plain = segments.filter((s) => s !== '' && s !== '.').join('/');
  const reason = `not a plain path (no "./", "//", "/./" or backslash); write it as ${JSON.stringify(plain)}`;
  throw new TugError('InvalidArgument', `${argument} ${JSON.stringify(input)}: ${reason}`, { details: { argument, path: input, reason, plain } });
}
