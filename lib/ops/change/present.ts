// Shapes results for output: deterministic ordering, and timings only when asked for (they differ run to run).
import { fileOperationsOf } from '../../core/file-ops.js';
import { toEditJSON, type PatchSet } from '../../core/patchset.js';
import type { RunResponseJSON, WarningJSON } from '../../core/schemas.js';
import { unifiedDiff } from '../../core/unified-diff.js';
import type { Verification } from '../../verify/verify.js';
import { timingsWanted } from '../../core/timing.js';

/**
 * Durations, and the output of checks that passed (test runners print timings), are left out unless
 * TUG_TIMINGS=1, so the same input gives byte-identical JSON. A failed check always carries its output.
 */
export function presentVerification(verification: Verification): Verification {
  if (timingsWanted()) return verification;
  return {
    ...verification,
    checks: verification.checks.map(({ duration_ms: _duration, output, ...rest }) =>
      (rest.status === 'failed' ? { ...rest, output } : rest) as typeof rest & { duration_ms: number },
    ),
  };
}

/** Warnings with a location sort by (file, line); the rest keep their order after them. */
export function orderWarnings(warnings: readonly WarningJSON[]): WarningJSON[] {
  const located = warnings.filter((w) => w.location).sort((a, b) => {
    const fa = a.location!.file;
    const fb = b.location!.file;
    return fa < fb ? -1 : fa > fb ? 1 : a.location!.line - b.location!.line;
  });
  return [...warnings.filter((w) => !w.location), ...located];
}

/** A PatchSet as results show it: edits in order, moves, created and deleted files, and the unified diff. */
export function presentPatch(patch: PatchSet): RunResponseJSON['patch'] {
  return {
    edits: patch.edits.map(toEditJSON),
    ...(patch.moves.length > 0 ? { file_moves: patch.moves } : {}),
    ...fileOperationsOf(patch),
    unified_diff: unifiedDiff(patch.files),
  };
}
