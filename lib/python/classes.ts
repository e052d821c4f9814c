// The inheritance graph that ties overriding methods together, and the members each class defines.
import type { Expr } from './facts.js';
import type { Entity, FileInfo, Project } from './project.js';

export interface ClassRef {
  module: string;
  owner: string;
}

const key = (c: ClassRef) => `${c.module}:${c.owner}`;

export class ClassModel {
  private readonly bases = new Map<string, ClassRef[]>();
  private readonly members = new Map<string, Set<string>>();
  private readonly bySubclass = new Map<string, ClassRef | null>();

  constructor(private readonly project: Project) {
    for (const info of project.files.values()) {
      for (const cls of info.facts.classes) {
        const ref = { module: info.module, owner: project.ownerPath(info, cls.scope) };
        this.bases.set(key(ref), cls.bases.map((b) => this.classOfEntity(project.follow(project.entityOfExpr(info, b)))).filter((c): c is ClassRef => c !== null));
        const names = this.memberSet(ref);
        for (const b of info.facts.bindings) if (b.scope === cls.scope) names.add(b.name);
      }
      for (const attr of info.facts.attributes) {
        if (attr.ctx !== 'store' || attr.receiver.k !== 'name') continue;
        const owner = this.selfClass(info, attr.receiver);
        if (owner) this.memberSet(owner).add(attr.attr);
      }
    }
  }

  private memberSet(ref: ClassRef): Set<string> {
    let set = this.members.get(key(ref));
    if (!set) this.members.set(key(ref), (set = new Set()));
    return set;
  }

  classOfEntity(entity: Entity | null): ClassRef | null {
    if (!entity) return null;
    if (entity.kind === 'module-attr' && this.project.isClass(entity.module, entity.name)) return { module: entity.module, owner: entity.name };
    if (entity.kind === 'class-member') {
      const owner = `${entity.owner}.${entity.name}`;
      if (this.project.isClass(entity.module, owner)) return { module: entity.module, owner };
    }
    return null;
  }

  /** The topmost class in `cls`'s ancestry that defines `name`; overriding methods share it. */
  memberRoot(cls: ClassRef, name: string): ClassRef {
    let best: ClassRef | null = this.members.get(key(cls))?.has(name) ? cls : null;
    const seen = new Set<string>([key(cls)]);
    const walk = (c: ClassRef) => {
      for (const base of this.bases.get(key(c)) ?? []) {
        if (seen.has(key(base))) continue;
        seen.add(key(base));
        if (this.members.get(key(base))?.has(name)) best = base;
        walk(base);
      }
    };
    walk(cls);
    return best ?? cls;
  }

  /** `self` / `cls` inside a method: the first parameter of a function defined directly in a class body. */
  selfClass(info: FileInfo, expr: Expr): ClassRef | null {
    if (expr.k !== 'name' || expr.ref === undefined) return null;
    const ref = info.facts.references[expr.ref];
    if (!ref || !('binding' in ref.resolved)) return null;
    const bindingId = ref.resolved.binding;
    const param = info.facts.params.find((p) => p.binding === bindingId && p.index === 0);
    if (!param) return null;
    const fn = info.facts.functions.find((f) => f.scope === param.scope);
    const fnScope = info.scopes.get(param.scope);
    const parent = fnScope?.parent === null || fnScope === undefined ? undefined : info.scopes.get(fnScope.parent);
    if (!fn || parent?.kind !== 'class') return null;
    if (fn.decorators.some((d) => d.k === 'name' && d.name === 'staticmethod')) return null;
    return { module: info.module, owner: this.project.ownerPath(info, parent.id) };
  }

  /** The nearest class in `cls`'s ancestry (itself first) that defines `name`. */
  definingClass(cls: ClassRef, name: string): ClassRef {
    const queue = [cls];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const current = queue.shift()!;
      if (seen.has(key(current))) continue;
      seen.add(key(current));
      if (this.members.get(key(current))?.has(name)) return current;
      queue.push(...(this.bases.get(key(current)) ?? []));
    }
    return cls;
  }

  /**
   * When `cls` and its bases lack `name`: the one subclass hierarchy that defines it (code that checked
   * `isinstance(x, Sub)` before the access, in practice), else null.
   */
  subclassDefining(cls: ClassRef, name: string): ClassRef | null {
    const memo = `${key(cls)}:${name}`;
    if (this.bySubclass.has(memo)) return this.bySubclass.get(memo)!;
    const found = new Map<string, ClassRef>();
    for (const sub of this.bases.keys()) {
      if (!this.members.get(sub)?.has(name)) continue;
      const [module, owner] = [sub.slice(0, sub.indexOf(':')), sub.slice(sub.indexOf(':') + 1)];
      if (this.inherits({ module, owner }, cls)) {
        const root = this.memberRoot({ module, owner }, name);
        found.set(key(root), root);
      }
    }
    const result = found.size === 1 ? [...found.values()][0]! : null;
    this.bySubclass.set(memo, result);
    return result;
  }

  private inherits(cls: ClassRef, ancestor: ClassRef, seen = new Set<string>()): boolean {
    for (const base of this.bases.get(key(cls)) ?? []) {
      if (seen.has(key(base))) continue;
      seen.add(key(base));
      if (key(base) === key(ancestor) || this.inherits(base, ancestor, seen)) return true;
    }
    return false;
  }

  basesOf(cls: ClassRef): ClassRef[] {
    return this.bases.get(key(cls)) ?? [];
  }

  defines(cls: ClassRef, name: string): boolean {
    return this.members.get(key(cls))?.has(name) ?? false;
  }
}
