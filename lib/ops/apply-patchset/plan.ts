// Turns a patchset file into a PatchSet: validated paths, snapshot contents, anchors resolved.
import type { z } from 'zod';
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
