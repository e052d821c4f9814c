// The cross-file view: which module binds what, where imports lead, and what a name or expression refers to.
import type { Binding, Expr, Facts, ImportFact, Reference, Scope } from './facts.js';
import { absoluteModule, type ModuleMap } from './modules.js';
import { ModuleTable } from './module-table.js';

/** What a name can stand for, across files. */
export type Entity =
  | { kind: 'module'; module: string }
  | { kind: 'module-attr'; module: string; name: string }
  | { kind: 'class-member'; module: string; owner: string; name: string }
  | { kind: 'local'; file: string; binding: number; name: string }
  | { kind: 'external'; name: string };

export function entityKey(entity: Entity): string {
  switch (entity.kind) {
    case 'module':
      return `module:${entity.module}`;
    case 'module-attr':
      return `attr:${entity.module}:${entity.name}`;
    case 'class-member':
      return `member:${entity.module}:${entity.owner}:${entity.name}`;
    case 'local':
      return `local:${entity.file}:${entity.binding}`;
    case 'external':
      return `external:${entity.name}`;
  }
}

export interface FileInfo {
  file: string;
  module: string;
  facts: Facts;
  scopes: Map<number, Scope>;
  bindings: Map<number, Binding>;
  /** Module-scope bindings by name (first binding site). */
  globals: Map<string, Binding>;
  /** Import binding id → the import and name that made it. */
  importOf: Map<number, { fact: ImportFact; index: number }>;
}

export class Project {
  readonly files = new Map<string, FileInfo>();
  /** Loaded modules; `byModule.missed` lists the repository's modules asked for but not loaded (load-project.ts). */
  readonly byModule = new ModuleTable<FileInfo>();

  constructor(
    readonly modules: ModuleMap,
    facts: ReadonlyMap<string, Facts>,
  ) {
    for (const [file, f] of facts) {
      const module = modules.byFile.get(file);
      if (module === undefined) continue;
      const info: FileInfo = {
        file,
        module,
        facts: f,
        scopes: new Map(f.scopes.map((s) => [s.id, s])),
        bindings: new Map(f.bindings.map((b) => [b.id, b])),
        globals: new Map(),
        importOf: new Map(),
      };
      const moduleScope = f.scopes.find((s) => s.kind === 'module')?.id ?? 0;
      for (const b of f.bindings) if (b.scope === moduleScope && !info.globals.has(b.name)) info.globals.set(b.name, b);
      for (const fact of f.imports) fact.names.forEach((n, index) => n.binding !== null && info.importOf.set(n.binding, { fact, index }));
      this.files.set(file, info);
      // A module's `.py` is what runs; its `.pyi` stub only describes it (stubs.ts ties the two together).
      if (!file.endsWith('.pyi') || !this.byModule.has(module)) this.byModule.set(module, info);
    }
    // Watched from here on: the lookups above only build the table.
    this.byModule.watch(modules.byName);
  }

  /** The first binding site of the symbol a binding belongs to (several `x = …` are one symbol). */
  canonical(info: FileInfo, binding: Binding): Binding {
    return binding.symbol !== undefined ? (info.bindings.get(binding.symbol) ?? binding) : binding;
  }

  /** Dotted path of classes (and functions) enclosing a scope, e.g. `Outer.Inner`. */
  ownerPath(info: FileInfo, scopeId: number): string {
    const names: string[] = [];
    for (let scope = info.scopes.get(scopeId); scope && scope.kind !== 'module'; scope = scope.parent === null ? undefined : info.scopes.get(scope.parent)) {
      names.unshift(scope.name ?? '<anonymous>');
    }
    return names.join('.');
  }

  /** What a binding site stands for; plain (non-aliased) imports follow through to what they import. */
  entityOfBinding(info: FileInfo, binding: Binding, seen = new Set<string>()): Entity {
    const canonical = this.canonical(info, binding);
    const scope = info.scopes.get(canonical.scope);
    const imported = info.importOf.get(canonical.id);
    if (imported) {
      const name = imported.fact.names[imported.index]!;
      // `from m import f as f` is the explicit re-export idiom, not an alias: it is f itself.
      const aliased = name.asname !== null && name.asname_span !== null && name.asname !== name.name;
      if (!aliased) return this.importedEntity(info, canonical, imported, seen);
    }
    if (!scope || scope.kind === 'module') return { kind: 'module-attr', module: info.module, name: canonical.name };
    if (scope.kind === 'class') return { kind: 'class-member', module: info.module, owner: this.ownerPath(info, scope.id), name: canonical.name };
    return { kind: 'local', file: info.file, binding: canonical.id, name: canonical.name };
  }

  /**
   * What an unaliased import binding brings. A name imported twice (`try: from ._c import X` / `except
   * ImportError: from ._py import X`) stands for the one defined in the workspace when only one is.
   */
  private importedEntity(info: FileInfo, canonical: Binding, imported: { fact: ImportFact; index: number }, seen: Set<string>): Entity {
    const entity = this.entityOfImport(info, imported.fact, imported.index, seen);
    if (this.definedHere(entity)) return entity;
    for (const other of info.facts.bindings) {
      const alternative = other.id !== canonical.id && other.symbol === canonical.id ? info.importOf.get(other.id) : undefined;
      const alias = alternative?.fact.names[alternative.index]!.asname;
      if (!alternative || (alias !== null && alias !== alternative.fact.names[alternative.index]!.name)) continue;
      const found = this.entityOfImport(info, alternative.fact, alternative.index, new Set(seen));
      if (this.definedHere(found)) return found;
    }
    return entity;
  }

  private definedHere(entity: Entity): boolean {
    if (entity.kind === 'external') return false;
    if (entity.kind === 'module') return this.byModule.has(entity.module);
    if (entity.kind === 'module-attr') return this.byModule.get(entity.module)?.globals.has(entity.name) ?? false;
    return true;
  }

  /** A workspace module's attribute that nothing in the module binds (nor its star imports): resolved by name only. */
  unboundAttr(entity: Entity): boolean {
    return entity.kind === 'module-attr' && this.byModule.has(entity.module) && !this.byModule.get(entity.module)!.globals.has(entity.name);
  }

  /** Where `import a.b` / `from m import x` leads: a module, a module attribute, or outside the workspace. */
  entityOfImport(info: FileInfo, fact: ImportFact, index: number, seen = new Set<string>()): Entity {
    const entry = fact.names[index]!;
    if (fact.kind === 'import') {
      // `import a.b.c` binds `a`; `import a.b.c as m` binds the whole module.
      const module = entry.asname ? entry.name : entry.name.split('.')[0]!;
      return this.byModule.has(module) || this.isPackage(module) ? { kind: 'module', module } : { kind: 'external', name: module };
    }
    const from = absoluteModule(info.file, info.module, fact.level, fact.module);
    if (from === null) return { kind: 'external', name: entry.name };
    return this.resolveAttr(from, entry.name, seen);
  }

  /** `from module import name`: a binding in that module (followed through re-exports) or a submodule. */
  resolveAttr(module: string, name: string, seen = new Set<string>()): Entity {
    const key = `${module}:${name}`;
    if (seen.has(key)) return { kind: 'module-attr', module, name };
    seen.add(key);
    const target = this.byModule.get(module);
    if (!target) {
      const sub = `${module}.${name}`;
      if (this.byModule.has(sub)) return { kind: 'module', module: sub };
      return this.isPackage(module) ? { kind: 'module-attr', module, name } : { kind: 'external', name: `${module}.${name}` };
    }
    const binding = target.globals.get(name);
    if (binding) return this.entityOfBinding(target, binding, seen);
    if (this.byModule.has(`${module}.${name}`)) return { kind: 'module', module: `${module}.${name}` };
    for (const fact of target.facts.imports) {
      if (!fact.star) continue;
      const from = absoluteModule(target.file, target.module, fact.level, fact.module);
      if (from && this.exports(from, name)) return this.resolveAttr(from, name, seen);
    }
    return { kind: 'module-attr', module, name };
  }

  /** Whether `from module import *` brings `name`: listed in `__all__`, or public when there is no `__all__`
   * (bound there, or brought by the module's own star imports). */
  exports(module: string, name: string, seen = new Set<string>()): boolean {
    const info = this.byModule.get(module);
    if (!info || seen.has(module)) return false;
    seen.add(module);
    if (info.facts.all) return info.facts.all.entries.some((e) => e.value === name);
    if (name.startsWith('_')) return false;
    if (info.globals.has(name)) return true;
    return info.facts.imports.some((fact) => {
      const from = fact.star ? absoluteModule(info.file, info.module, fact.level, fact.module) : null;
      return from !== null && this.exports(from, name, seen);
    });
  }

  private followDepth = 0;

  /**
   * What a module attribute stands for when used as a value: an aliased import (`import pkg as lib`, then
   * `from . import lib` elsewhere) leads to its module, and a name assigned once from another (`MD = MultiDict`)
   * to that one. Renames never follow these (the alias keeps its own name); resolution of what is used does.
   */
  follow(entity: Entity | null): Entity | null {
    if (this.followDepth > 16) return entity;
    this.followDepth++;
    try {
      if (entity?.kind === 'local') entity = this.localAliasTarget(entity) ?? entity;
      for (let step = 0; step < 8 && entity?.kind === 'module-attr'; step++) {
        const next = this.aliasTarget(entity);
        if (!next || entityKey(next) === entityKey(entity)) return entity;
        entity = next;
      }
      return entity;
    } finally {
      this.followDepth--;
    }
  }

  private aliasTarget(entity: Extract<Entity, { kind: 'module-attr' }>): Entity | null {
    const info = this.byModule.get(entity.module);
    const binding = info?.globals.get(entity.name);
    if (!info || !binding) return null;
    const canonical = this.canonical(info, binding);
    const imported = info.importOf.get(canonical.id);
    if (imported) return this.entityOfImport(info, imported.fact, imported.index);
    const value = canonical.value;
    if (canonical.kind !== 'variable' || !value || (value.k !== 'name' && value.k !== 'attr')) return null;
    const rebound = info.facts.bindings.some((b) => b.id !== canonical.id && b.scope === canonical.scope && b.name === canonical.name);
    return rebound ? null : this.entityOfExpr(info, value);
  }

  /**
   * A local that only ever holds one known name: assigned from it (`cls = JSONEncoder`, once or on several paths), or a
   * parameter that the function replaces by it when not given (`if cls is None: cls = JSONEncoder`), where what a caller
   * passes stands in for that name. Anything else bound to it (a loop, an import, a call's result) keeps it unknown.
   */
  private localAliasTarget(entity: Extract<Entity, { kind: 'local' }>): Entity | null {
    const info = this.files.get(entity.file);
    if (!info) return null;
    let target: Entity | null = null;
    for (const b of info.facts.bindings) {
      if ((b.symbol ?? b.id) !== entity.binding || b.kind === 'parameter') continue;
      const value = b.value;
      if (b.kind !== 'variable' || !value || (value.k !== 'name' && value.k !== 'attr')) return null;
      const next = this.follow(this.entityOfExpr(info, value));
      if (!next || next.kind === 'local' || (target && entityKey(target) !== entityKey(next))) return null;
      target = next;
    }
    return target;
  }

  isPackage(module: string): boolean {
    const prefix = `${module}.`;
    // The repository's modules, loaded or not: a partial load answers as a full one would.
    for (const name of this.modules.byName.keys()) if (name.startsWith(prefix)) return true;
    return false;
  }

  /** What a binding evaluates to: like entityOfBinding, but aliased imports (`import a.b as m`) also lead to their target. */
  valueOfBinding(info: FileInfo, binding: Binding): Entity {
    const canonical = this.canonical(info, binding);
    const imported = info.importOf.get(canonical.id);
    return imported ? this.entityOfImport(info, imported.fact, imported.index) : this.entityOfBinding(info, binding);
  }

  /** What a name evaluates to, following aliased imports too. */
  valueOfReference(info: FileInfo, ref: Reference): Entity | null {
    const r = ref.resolved;
    const binding = 'binding' in r ? info.bindings.get(r.binding) : 'global' in r ? info.globals.get(r.global) : undefined;
    return binding ? this.valueOfBinding(info, binding) : this.entityOfReference(info, ref);
  }

  /** What a name reference stands for, including names brought in by star imports. */
  entityOfReference(info: FileInfo, ref: Reference): Entity | null {
    const r = ref.resolved;
    if ('binding' in r) {
      const binding = info.bindings.get(r.binding);
      return binding ? this.entityOfBinding(info, binding) : null;
    }
    if ('global' in r) {
      const binding = info.globals.get(r.global);
      return binding ? this.entityOfBinding(info, binding) : null;
    }
    if ('unresolved' in r) {
      for (const fact of info.facts.imports) {
        if (!fact.star) continue;
        const from = absoluteModule(info.file, info.module, fact.level, fact.module);
        if (from && this.exports(from, r.unresolved)) return this.resolveAttr(from, r.unresolved);
      }
    }
    return null;
  }

  /** The entity an expression evaluates to when it names something (a module, a class, a function). */
  entityOfExpr(info: FileInfo, expr: Expr): Entity | null {
    if (expr.k === 'name') {
      if (expr.ref === undefined) {
        // A name inside a string annotation: looked up in the module, where such annotations are evaluated.
        const binding = info.globals.get(expr.name);
        return binding ? this.valueOfBinding(info, binding) : null;
      }
      const ref = info.facts.references[expr.ref];
      return ref ? this.valueOfReference(info, ref) : null;
    }
    if (expr.k === 'attr') {
      const base = this.follow(this.entityOfExpr(info, expr.value));
      if (base?.kind === 'module') return this.resolveAttr(base.module, expr.attr);
      if (base?.kind === 'module-attr' && this.isClass(base.module, base.name)) {
        return { kind: 'class-member', module: base.module, owner: base.name, name: expr.attr };
      }
      return null;
    }
    return null;
  }

  isClass(module: string, owner: string): boolean {
    return this.classScope(module, owner) !== null;
  }

  /** The class body scope of `owner` (a dotted path) in `module`, or null. */
  classScope(module: string, owner: string): { info: FileInfo; scope: Scope } | null {
    const info = this.byModule.get(module);
    if (!info) return null;
    for (const scope of info.facts.scopes) if (scope.kind === 'class' && this.ownerPath(info, scope.id) === owner) return { info, scope };
    return null;
  }
}
