// Renames whose result would be wrong where no edit can reach: the old name is data there (the key of a mapping a call
// spreads into keywords, a string a function looks its own locals up by). Listing such a place as unsure still let the
// result through, and the project's tests failed (the sweep over real projects, docs/QUALITY.md); so tug refuses.
import { TugError } from '../core/errors.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { UnsureSite } from './unsure.js';
import type { Entity, Project } from './project.js';
import type { Occurrence } from './references.js';

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
  throw new TugError('UnsafeRefactor', `${why}: renamed, that place would still use the old name; set include_unsure (CLI --include-unsure) to rename anyway (it is then listed in unsure)`, {
    details: { reason: site.asData === 'mapping' ? 'keywords through a mapping' : 'read through locals()', path: site.file, line, col },
    location: { file: site.file, line, col },
  });
}

/**
 * `patch("pkg.user.old")` replaces the module `old`, as `pkg.user` binds it, with a mock, and the test then reads the
 * mock's attribute by the old name (colorama's winterm tests: `@patch('colorama.winterm.win32')`, then
 * `mockWin32.STDOUT`), which no edit can tie to the renamed symbol; renamed, `win32.STDOUT_new` in `pkg.user` and the
 * test's `mockWin32.STDOUT` are two different attributes of the mock. So a rename read that way is refused (the sweep).
 */
export function refuseReadThroughPatchedModule(project: Project, entity: Entity, occurrences: readonly Occurrence[], unsure: readonly UnsureSite[], bytesOf: ReadonlyMap<string, Uint8Array>): void {
  if (entity.kind !== 'module-attr') return;
  // The test's own reads of the mock are unsure places (a mock is no type tug knows): only a file with one counts.
  const readers = new Set(unsure.map((u) => u.file));
  const strings = new Set([...project.files.values()].filter((info) => readers.has(info.file)).flatMap((info) => info.facts.strings.map((s) => s.value)));
  if (strings.size === 0) return;
  for (const o of occurrences) {
    const info = project.files.get(o.file);
    const bytes = bytesOf.get(o.file);
    if (!info || !bytes || o.kind === 'definition') continue;
    const before = /([A-Za-z_]\w*)\.$/.exec(new TextDecoder().decode(bytes.subarray(Math.max(0, o.span[0] - 80), o.span[0])));
    if (!before) continue;
    const alias = before[1]!;
    const target = `${info.module}.${alias}`;
    if (!strings.has(target)) continue;
    const bound = project.resolveAttr(info.module, alias);
    if (bound.kind !== 'module' || bound.module !== entity.module) continue;
    const { line, col } = positionOf(lineStarts(bytes), o.span[0] - alias.length - 1);
    throw new TugError('UnsafeRefactor', `${o.file}:${line}:${col} reads ${alias}.${entity.name}, and a test replaces ${alias} there with a mock (the string "${target}"), whose attributes the test reads by the old name: renamed, the two would no longer meet`, {
      details: { reason: 'module patched in tests', path: o.file, line, col, target },
      location: { file: o.file, line, col },
    });
  }
}

/**
 * A module-level name that an import binds too (`BytesIO = StringIO` on Python 2, `from io import StringIO, BytesIO`
 * on 3: simplejson's compat) where the rename does not reach that import: renamed, the module would bind the new name
 * on one branch only and every importer of it failed on the other. Refused (the sweep over real projects).
 */
export function refuseUncoveredImport(project: Project, entity: Entity, occurrences: readonly Occurrence[], oldName: string): void {
  if (entity.kind !== 'module-attr') return;
  const info = project.byModule.get(entity.module);
  if (!info) return;
  const covered = new Set(occurrences.filter((o) => o.file === info.file).map((o) => o.span[0]));
  const top = info.facts.scopes.find((s) => s.parent === null)?.id;
  const left = info.facts.bindings.find((b) => b.scope === top && b.name === oldName && b.kind === 'import' && !covered.has(b.span[0]));
  if (!left || !occurrences.some((o) => o.file === info.file && o.kind === 'definition')) return;
  throw new TugError('UnsafeRefactor', `${oldName} is also bound at ${info.file}:${left.line}:${left.col} by an import the rename does not reach: the module would bind the new name on one path only; rename that import (\`import … as\`) first`, {
    details: { reason: 'other binding', path: info.file, line: left.line, col: left.col },
    location: { file: info.file, line: left.line, col: left.col },
  });
}

/**
 * A module-level name read at module level before the module first binds it (`unichr = unichr` on simplejson's Python 2
 * branch, `try: unicode except NameError: …`): that read is a builtin there, or undefined, never this name. Renamed with
 * the name, it became `unichr_sw = unichr_sw`, an undefined name on the path that runs it. Refused (the sweep over real
 * projects). The read counts as before the binding when it comes earlier in the file or on the binding's own line (an
 * assignment evaluates its value before it binds).
 */
export function refuseReadBeforeBound(project: Project, entity: Entity, oldName: string): void {
  if (entity.kind !== 'module-attr') return;
  const info = project.byModule.get(entity.module);
  if (!info) return;
  const top = info.facts.scopes.find((s) => s.parent === null)?.id;
  const bindings = info.facts.bindings.filter((b) => b.scope === top && b.name === oldName);
  if (bindings.length === 0) return;
  const first = bindings.reduce((a, b) => (b.span[0] < a.span[0] ? b : a));
  const early = info.facts.references.find((r) => r.scope === top && r.name === oldName && r.ctx === 'load' && (r.span[0] < first.span[0] || r.line === first.line));
  if (!early) return;
  throw new TugError('UnsafeRefactor', `${oldName} is read at ${info.file}:${early.line}:${early.col} before the module binds it (line ${first.line}): that read is a builtin or undefined there, not this name, and renaming it would leave it undefined`, {
    details: { reason: 'read before bound', path: info.file, line: early.line, col: early.col },
    location: { file: info.file, line: early.line, col: early.col },
  });
}
