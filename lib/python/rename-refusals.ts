// Renames whose result would be wrong where no edit can reach: the old name is data there (the key of a mapping a call
// spreads into keywords, a string a function looks its own locals up by). Listing such a place as unsure still let the
// result through, and the project's tests failed (the sweep over real projects, docs/QUALITY.md); so tug refuses.
import { TugError } from '../core/errors.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { UnsureSite } from './unsure.js';

/**
 * Refuses a rename one of whose unsure places holds the old name as data, unless the caller accepted the unsure places
 * (`--include-unsure`: they are then listed as before, a mapping's keys never edited).
 */
export function refuseNameAsData(unsure: readonly UnsureSite[], oldName: string, bytesOf: ReadonlyMap<string, Uint8Array>, includeUnsure: boolean): void {
  if (includeUnsure) return;
  const site = unsure.find((u) => u.asData !== undefined);
  if (!site) return;
  const { line, col } = positionOf(lineStarts(bytesOf.get(site.file)!), site.span[0]);
  const why =
    site.asData === 'mapping'
      ? `${site.text} at ${site.file}:${line}:${col} passes keywords from a mapping whose keys tug cannot see, and one may be ${oldName}`
      : `the function at ${site.file}:${line}:${col} reads its own variables by name (${site.text}), so the name ${oldName} is data there`;
  throw new TugError('UnsafeRefactor', `${why}: renamed, that place would still use the old name; pass --include-unsure to rename anyway (it is then listed in unsure)`, {
    details: { reason: site.asData === 'mapping' ? 'keywords through a mapping' : 'read through locals()', path: site.file, line, col },
    location: { file: site.file, line, col },
  });
}
