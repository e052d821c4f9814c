// After a Python rename is planned, proves it complete on the renamed code: what named the symbol still does, nothing dangles.
import { TugError } from '../core/errors.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { Span } from './facts.js';
import type { Entity, FileInfo, Project } from './project.js';
import type { Resolver } from './references.js';
import type { RenamedProject } from './renamed-project.js';

type SiteKind = 'name' | 'attribute' | 'import' | 'keyword' | 'all';

interface Site {
  kind: SiteKind;
  span: Span;
  entity: Entity | null;
}

export interface LeftOver {
  file: string;
  line: number;
  col: number;
  text: string;
  reason: 'not_renamed' | 'resolves_elsewhere' | 'dangling' | 'unknown_keyword';
  /** What the place would name after the rename (dotted), when it names anything. */
  resolves_to?: string;
}

/** A dotted label for an entity, for people reading a report. */
export function describeEntity(entity: Entity | null): string | undefined {
  if (!entity) return undefined;
  switch (entity.kind) {
    case 'module':
      return entity.module;
    case 'module-attr':
      return `${entity.module}.${entity.name}`;
    case 'class-member':
      return `${entity.module}.${entity.owner}.${entity.name}`;
    case 'local':
      return `${entity.name} (local in ${entity.file})`;
    case 'external':
      return entity.name;
  }
}

/** Every place in a file that writes one of `names` and what it resolves to. */
function sitesOf(resolver: Resolver, info: FileInfo, names: ReadonlySet<string>): Site[] {
  const project = resolver.project;
  const f = info.facts;
  const out: Site[] = [];
  for (const ref of f.references) if (names.has(ref.name)) out.push({ kind: 'name', span: ref.span, entity: project.entityOfReference(info, ref) });
  for (const [index, attr] of f.attributes.entries()) if (names.has(attr.attr)) out.push({ kind: 'attribute', span: attr.span, entity: resolver.attributeEntity(info, index) });
  for (const fact of f.imports) {
    if (fact.kind !== 'from') continue;
    for (const [index, name] of fact.names.entries()) if (names.has(name.name)) out.push({ kind: 'import', span: name.name_span, entity: project.entityOfImport(info, fact, index) });
  }
  for (const call of f.calls) {
    for (const kw of call.keywords) if (names.has(kw.name)) out.push({ kind: 'keyword', span: kw.span, entity: resolver.parameterOf(info, call, kw.name) });
  }
  for (const entry of f.all?.entries ?? []) if (names.has(entry.value)) out.push({ kind: 'all', span: entry.span, entity: project.resolveAttr(info.module, entry.value) });
  return out;
}

/** Whether an entity names something that is there: a module, a module global (or a module `__getattr__`), anything else. */
function exists(project: Project, entity: Entity | null): boolean {
  if (!entity) return false;
  if (entity.kind === 'module') return project.byModule.has(entity.module) || project.isPackage(entity.module);
  if (entity.kind !== 'module-attr') return true;
  const info = project.byModule.get(entity.module);
  if (!info) return false;
  return info.globals.has(entity.name) || info.globals.has('__getattr__') || project.resolveAttr(entity.module, entity.name).kind !== 'module-attr';
}

/** The symbol after the rename: the same entity under its new name. */
export function renamedEntity(entity: Entity, newName: string): Entity {
  switch (entity.kind) {
    case 'module':
      return { kind: 'module', module: [...entity.module.split('.').slice(0, -1), newName].join('.') };
    case 'external':
      return entity;
    default:
      return { ...entity, name: newName };
  }
}

export interface CompletenessInput {
  before: Resolver;
  after: RenamedProject;
  /** The renamed symbol and its stub twins. */
  targets: readonly Entity[];
  oldName: string;
  newName: string;
  /** Files whose bytes mention the old or the new name: the only ones whose resolution of them can change. */
  mentioning: ReadonlySet<string>;
  /** New contents of edited files, old contents of the rest (for positions). */
  bytesOf: (newPath: string) => Uint8Array | undefined;
}

/** Whatever the renamed code leaves behind; empty when the rename is complete. */
export function leftOvers(input: CompletenessInput): LeftOver[] {
  const { before, after, oldName, newName } = input;
  const wanted = new Set(input.targets.map((t) => before.key(t)));
  const expected = new Set(input.targets.map((t) => after.resolver.key(renamedEntity(before.normalize(t), newName))));
  const left: LeftOver[] = [];
  const names = new Set([oldName, newName]);
  const files = [...new Set([...input.mentioning, ...after.changed])].sort();
  for (const file of files) {
    const info = before.project.files.get(file);
    const newInfo = after.resolver.project.files.get(after.pathOf(file));
    if (!info || !newInfo) continue;
    const now = new Map(sitesOf(after.resolver, newInfo, names).map((s) => [`${s.kind}:${s.span[0]}`, s]));
    const bytes = input.bytesOf(newInfo.file);
    const starts = bytes ? lineStarts(bytes) : [0];
    const report = (span: Span, reason: LeftOver['reason'], now: Site | undefined) => {
      const text = bytes ? Buffer.from(bytes.subarray(span[0], span[1])).toString('utf8') : oldName;
      const label = reason === 'dangling' || reason === 'unknown_keyword' ? undefined : describeEntity(now?.entity ? after.resolver.normalize(now.entity) : null);
      left.push({ file: newInfo.file, ...positionOf(starts, span[0]), text, reason, ...(label ? { resolves_to: label } : {}) });
    };
    for (const site of sitesOf(before, info, new Set([oldName]))) {
      const moved = after.offsetOf(file, site.span[0]);
      const later = now.get(`${site.kind}:${moved}`);
      const span: Span = [moved, moved + (later ? later.span[1] - later.span[0] : site.span[1] - site.span[0])];
      const key = before.key(site.entity);
      if (key !== null && wanted.has(key)) {
        if (later && expected.has(after.resolver.key(later.entity))) continue;
        const text = bytes ? Buffer.from(bytes.subarray(span[0], span[1])).toString('utf8') : oldName;
        report(span, text === oldName ? 'not_renamed' : 'resolves_elsewhere', later);
        continue;
      }
      if (site.entity === null || !exists(before.project, site.entity) || (site.entity.kind === 'external' && site.kind !== 'keyword')) continue;
      if (site.kind === 'keyword') {
        if (!later || later.entity === null) report(span, 'unknown_keyword', later);
        continue;
      }
      if (!later || !exists(after.resolver.project, later.entity)) report(span, 'dangling', later);
    }
    // A place that already wrote the new name for something else must not name the renamed symbol now (capture).
    for (const site of newName === oldName ? [] : sitesOf(before, info, new Set([newName]))) {
      if (site.entity === null || site.entity.kind === 'external' || !exists(before.project, site.entity)) continue;
      const moved = after.offsetOf(file, site.span[0]);
      const later = now.get(`${site.kind}:${moved}`);
      if (later && expected.has(after.resolver.key(later.entity))) report([moved, moved + (later.span[1] - later.span[0])], 'resolves_elsewhere', later);
    }
  }
  return left;
}

export function assertComplete(left: readonly LeftOver[], oldName: string, newName: string): void {
  if (left.length === 0) return;
  const first = left[0]!;
  throw new TugError('IncompleteRename', `renaming ${oldName} to ${newName} would leave ${left.length} place(s) that no longer resolve as before, first ${first.file}:${first.line}:${first.col}`, {
    details: { old_name: oldName, new_name: newName, left: left.map((l) => ({ ...l })) },
    location: { file: first.file, line: first.line, col: first.col },
  });
}
