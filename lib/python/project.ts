// The cross-file view: which module binds what, where imports lead, and what a name or expression refers to.
import type { Binding, Expr, Facts, ImportFact, Reference, Scope } from './facts.js';
import { absoluteModule, type ModuleMap } from './modules.js';

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
  readonly byModule = new Map<string, FileInfo>();

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
      if (!aliased) return this.entityOfImport(info, imported.fact, imported.index, seen);
    }
    if (!scope || scope.kind === 'module') return { kind: 'module-attr', module: info.module, name: canonical.name };
    if (scope.kind === 'class') return { kind: 'class-member', module: info.module, owner: this.ownerPath(info, scope.id), name: canonical.name };
    return { kind: 'local', file: info.file, binding: canonical.id, name: canonical.name };
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

  /** Whether `from module import *` brings `name`: listed in `__all__`, or public when there is no `__all__`. */
  exports(module: string, name: string): boolean {
    const info = this.byModule.get(module);
    if (!info) return false;
    if (info.facts.all) return info.facts.all.entries.some((e) => e.value === name);
    return !name.startsWith('_') && info.globals.has(name);
  }

  isPackage(module: string): boolean {
    const prefix = `${module}.`;
    for (const name of this.byModule.keys()) if (name.startsWith(prefix)) return true;
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
      const ref = expr.ref === undefined ? undefined : info.facts.references[expr.ref];
      return ref ? this.valueOfReference(info, ref) : null;
    }
    if (expr.k === 'attr') {
      const base = this.entityOfExpr(info, expr.value);
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
