// Refuses renames that would change what names mean: the new name already bound, captured, or shadowing.
import type { Scope } from './facts.js';
import type { Entity, FileInfo } from './project.js';
import { nameOf, type Occurrence, type Resolver } from './references.js';

export interface Conflict {
  file: string;
  line: number;
  col: number;
  reason: 'already_defined' | 'captures_reference' | 'shadowed_by';
  name: string;
}

function ancestors(info: FileInfo, scopeId: number): Scope[] {
  const chain: Scope[] = [];
  for (let s = info.scopes.get(scopeId); s; s = s.parent === null ? undefined : info.scopes.get(s.parent)) chain.push(s);
  return chain;
}

/** Whether code in `inner` sees names bound in `outer` (class bodies do not enclose nested functions). */
function sees(info: FileInfo, inner: number, outer: number): boolean {
  const chain = ancestors(info, inner);
  const at = chain.findIndex((s) => s.id === outer);
  if (at === -1) return false;
  return !chain.slice(1, at).some((s) => s.kind === 'class') && !(at > 0 && chain[at]!.kind === 'class');
}

export function findConflicts(resolver: Resolver, entity: Entity, occurrences: readonly Occurrence[], newName: string): Conflict[] {
  const conflicts: Conflict[] = [];
  const project = resolver.project;
  const byFile = new Map<string, Occurrence[]>();
  for (const o of occurrences) byFile.set(o.file, [...(byFile.get(o.file) ?? []), o]);
  const wanted = resolver.key(entity);

  if (entity.kind === 'class-member') {
    for (const info of project.files.values()) {
      for (const cls of info.facts.classes) {
        const owner = project.ownerPath(info, cls.scope);
        const member = resolver.key({ kind: 'class-member', module: info.module, owner, name: entity.name });
        const defines = info.facts.bindings.find((b) => b.scope === cls.scope && b.name === newName);
        if (member === wanted && defines) conflicts.push({ file: info.file, line: defines.line, col: defines.col, reason: 'already_defined', name: newName });
      }
    }
  }

  for (const [file, occs] of byFile) {
    const info = project.files.get(file)!;
    const f = info.facts;
    // Scopes in this file where the renamed symbol is bound.
    const homes = new Set<number>();
    for (const b of f.bindings) if (b.name === nameOf(entity) && resolver.key(project.entityOfBinding(info, b)) === wanted) homes.add(b.scope);
    for (const home of homes) {
      if (entity.kind === 'class-member') continue;
      for (const b of f.bindings) {
        if (b.scope === home && b.name === newName && resolver.key(project.entityOfBinding(info, b)) !== wanted) {
          conflicts.push({ file, line: b.line, col: b.col, reason: 'already_defined', name: newName });
        }
      }
      for (const ref of f.references) {
        if (ref.name !== newName || !sees(info, ref.scope, home)) continue;
        const boundInside = 'binding' in ref.resolved && (() => {
          const target = info.bindings.get((ref.resolved as { binding: number }).binding);
          return target !== undefined && target.scope !== home && sees(info, target.scope, home) && target.scope !== home;
        })();
        if (!boundInside) conflicts.push({ file, line: ref.line, col: ref.col, reason: 'captures_reference', name: newName });
      }
    }
    for (const occ of occs) {
      if (occ.kind !== 'reference' && occ.kind !== 'call') continue;
      const ref = f.references.find((r) => r.span[0] === occ.span[0]);
      if (!ref) continue;
      for (const scope of ancestors(info, ref.scope)) {
        if (homes.has(scope.id)) break;
        const shadow = f.bindings.find((b) => b.scope === scope.id && b.name === newName);
        if (shadow && scope.kind !== 'class') {
          conflicts.push({ file, line: ref.line, col: ref.col, reason: 'shadowed_by', name: newName });
          break;
        }
      }
    }
  }
  const seen = new Set<string>();
  return conflicts
    .filter((c) => (seen.has(`${c.file}:${c.line}:${c.col}:${c.reason}`) ? false : seen.add(`${c.file}:${c.line}:${c.col}:${c.reason}`)))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
}
