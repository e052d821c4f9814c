// `assist`'s work: one rust-analyzer assist by id, resolved to plain edits (and any file it creates or moves), then
// verified and committed on tug/assist/<id>-<place> like every refactor.
import type { z } from 'zod';
import { withFileOperations } from '../../core/file-ops.js';
import { buildPatchSet } from '../../core/patchset.js';
import type { OperationContext } from '../operation.js';
import { refactorDoors } from '../change/doors.js';
import { loadSourceFiles } from '../change/source-files.js';
import type { Planner } from '../change/types.js';
import { siteInput } from './place.js';
import type { assistInput } from './schema.js';

type Input = z.infer<typeof assistInput>;

const encoder = new TextEncoder();

function planner(input: Input, context: OperationContext): Planner {
  return async (ws, snapshot) => {
    const site = await siteInput(ws, snapshot, input, 'assist');
    context.progress?.('asking rust-analyzer');
    const { planCatalogAssist } = await import('../../rust/assist-catalog.js');
    const plan = await planCatalogAssist({ ...site, id: input.id });
    const files = await loadSourceFiles(ws.repo, snapshot.tree, [...plan.edits.map((e) => e.file), ...plan.moves.map((m) => m.from)]);
    const patch = withFileOperations(
      buildPatchSet(plan.edits, files, plan.moves),
      plan.creates.map((c) => ({ path: c.path, bytes: encoder.encode(c.text) })),
      [],
    );
    const place = `${site.file.replace(/\.rs$/, '').replaceAll('/', '-')}-${input.line}`;
    return { patch, warnings: plan.warnings, subject: `${plan.title} (${plan.id}) in ${site.file}`, slug: `${plan.id.replace('#', '-')}-${place}` };
  };
}

const doors = refactorDoors<Input>('assist', planner);
export const runAssist = doors.run;
export const previewAssist = doors.preview;
