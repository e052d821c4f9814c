// Strings that name a symbol by its dotted path, as `mock.patch("pkg.mod.helper")` and configuration do: when the
// path resolves, module by module, to the renamed symbol, the name in it is a reference and is renamed with it.
import type { EditRequest } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { Entity, Project } from './project.js';
import type { Resolver } from './references.js';

export function dottedPathEdits(
  project: Project,
  resolver: Resolver,
  entities: readonly Entity[],
  oldName: string,
  newName: string,
  bytesOf: ReadonlyMap<string, Uint8Array>,
): { edits: EditRequest[]; warnings: WarningJSON[] } {
  const wanted = new Set(entities.map((e) => resolver.key(e)));
  const edits: EditRequest[] = [];
  const warnings: WarningJSON[] = [];
  for (const info of [...project.files.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    for (const s of info.facts.strings) {
      const within = nameInPath(project, resolver, wanted, oldName, s.value);
      if (within === null) continue;
      const start = s.span[0] + within;
      edits.push({ file: info.file, span: { start, end: start + Buffer.byteLength(oldName) }, old_text: oldName, new_text: newName });
      const { line, col } = positionOf(lineStarts(bytesOf.get(info.file)!), s.span[0]);
      warnings.push({ code: 'DottedPathRenamed', message: `the string "${s.value}" names ${oldName} by its dotted path (a mock.patch target, say) and was renamed with it`, location: { file: info.file, line, col } });
    }
  }
  return { edits, warnings };
}

/** The byte offset of the name in a dotted path that resolves to the renamed symbol, or null. */
function nameInPath(project: Project, resolver: Resolver, wanted: ReadonlySet<string | null>, oldName: string, dotted: string): number | null {
  const parts = dotted.split('.');
  for (let at = 1; at < parts.length; at++) {
    if (parts[at] === oldName && wanted.has(resolver.key(pathEntity(project, parts, at)))) return Buffer.byteLength(`${parts.slice(0, at).join('.')}.`);
  }
  return null;
}

/**
 * Dotted paths in the text of docs (a doctest's expected output such as `<class 'pkg.mod.Name'>`, a Sphinx
 * `:class:` role) that resolve to the renamed symbol: byte spans of the name in them.
 */
export function dottedPathsInText(project: Project, resolver: Resolver, entities: readonly Entity[], oldName: string, text: string): Array<[number, number]> {
  const wanted = new Set(entities.map((e) => resolver.key(e)));
  const spans: Array<[number, number]> = [];
  for (const match of text.matchAll(/(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+/g)) {
    const within = nameInPath(project, resolver, wanted, oldName, match[0]);
    if (within === null) continue;
    const start = Buffer.byteLength(text.slice(0, match.index)) + within;
    spans.push([start, start + Buffer.byteLength(oldName)]);
  }
  return spans;
}

/**
 * What `parts[0..at]` names: from the longest prefix that is a module, each further part a module it binds, then the
 * attribute itself or a member of the class there (wherever that class is defined); null when no prefix is a module.
 */
function pathEntity(project: Project, parts: readonly string[], at: number): Entity | null {
  for (let end = at; end >= 1; end--) {
    let module = parts.slice(0, end).join('.');
    if (!project.byModule.has(module)) continue;
    let k = end;
    for (let next = k < at ? project.resolveAttr(module, parts[k]!) : null; next?.kind === 'module'; next = k < at ? project.resolveAttr(module, parts[k]!) : null) {
      module = next.module;
      k++;
    }
    if (k === at) return project.resolveAttr(module, parts[at]!);
    const owner = project.resolveAttr(module, parts[k]!);
    if (owner.kind !== 'module-attr') return null;
    return { kind: 'class-member', module: owner.module, owner: [owner.name, ...parts.slice(k + 1, at)].join('.'), name: parts[at]! };
  }
  return null;
}
