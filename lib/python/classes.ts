// Type inference for receivers (seed §26.0.2 levels 1–3) and the inheritance graph that ties overriding methods together.
import type { Expr } from './facts.js';
import type { Entity, FileInfo, Project } from './project.js';

export interface ClassRef {
  module: string;
  owner: string;
}

const key = (c: ClassRef) => `${c.module}:${c.owner}`;

export class ClassModel {
  /** Resolved on first use: a partial load (load-project.ts) then reads only the base classes' modules a rename needs. */
  private readonly bases = new Map<string, () => ClassRef[]>();
  private readonly members = new Map<string, Set<string>>();

  constructor(private readonly project: Project) {
    for (const info of project.files.values()) {
      for (const cls of info.facts.classes) {
        const ref = { module: info.module, owner: project.ownerPath(info, cls.scope) };
        let resolved: ClassRef[] | undefined;
        this.bases.set(key(ref), () => (resolved ??= cls.bases.map((b) => this.classOfEntity(project.entityOfExpr(info, b))).filter((c): c is ClassRef => c !== null)));
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
      for (const base of this.bases.get(key(c))?.() ?? []) {
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

  /** The class of the value an expression evaluates to, as far as static facts tell. */
  inferClass(info: FileInfo, expr: Expr, depth = 0): ClassRef | null {
    if (depth > 6) return null;
    if (expr.k === 'name') {
      const self = this.selfClass(info, expr);
      if (self) return self;
      const ref = expr.ref === undefined ? undefined : info.facts.references[expr.ref];
      if (ref && 'binding' in ref.resolved) {
        const binding = info.bindings.get(ref.resolved.binding);
        if (binding?.type_hint) return this.fromAnnotation(info, binding.type_hint, depth + 1);
        if (binding?.value) return this.inferClass(info, binding.value, depth + 1);
      }
      return null;
    }
    if (expr.k === 'iter') {
      // `for x in xs` where xs is annotated list[C] / Iterable[C]: x is a C.
      const hint = expr.of.k === 'name' ? this.bindingHint(info, expr.of) : null;
      if (hint?.k === 'subscript') return this.fromAnnotation(info, hint.slice[hint.slice.length - 1] ?? { k: 'other' }, depth + 1);
      return null;
    }
    if (expr.k === 'call') {
      const callee = this.project.entityOfExpr(info, expr.func) ?? this.memberCallee(info, expr.func, depth);
      const cls = this.classOfEntity(callee);
      if (cls) return cls;
      const returns = this.returnAnnotation(callee);
      return returns ? this.fromAnnotation(returns.info, returns.expr, depth + 1) : null;
    }
    return null;
  }

  private bindingHint(info: FileInfo, expr: Expr): Expr | null {
    if (expr.k !== 'name' || expr.ref === undefined) return null;
    const ref = info.facts.references[expr.ref];
    if (!ref || !('binding' in ref.resolved)) return null;
    return info.bindings.get(ref.resolved.binding)?.type_hint ?? null;
  }

  /** `obj.method` where obj's class is known: the method, defined on that class or inherited. */
  private memberCallee(info: FileInfo, func: Expr, depth: number): Entity | null {
    if (func.k !== 'attr') return null;
    const owner = this.inferClass(info, func.value, depth + 1);
    if (!owner) return null;
    const root = this.definingClass(owner, func.attr);
    return { kind: 'class-member', module: root.module, owner: root.owner, name: func.attr };
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
      queue.push(...(this.bases.get(key(current))?.() ?? []));
    }
    return cls;
  }

  private returnAnnotation(entity: Entity | null): { info: FileInfo; expr: Expr } | null {
    if (!entity || (entity.kind !== 'module-attr' && entity.kind !== 'class-member')) return null;
    const info = this.project.byModule.get(entity.module);
    if (!info) return null;
    for (const fn of info.facts.functions) {
      const binding = info.bindings.get(fn.binding);
      if (!binding || binding.name !== entity.name || !fn.returns) continue;
      const owner = this.project.ownerPath(info, binding.scope);
      if ((entity.kind === 'module-attr' && owner === '') || (entity.kind === 'class-member' && owner === entity.owner)) return { info, expr: fn.returns };
    }
    return null;
  }

  /** `C`, `mod.C`, `Optional[C]`, `C | None`, `"C"` → C. */
  fromAnnotation(info: FileInfo, expr: Expr, depth: number): ClassRef | null {
    if (depth > 6) return null;
    switch (expr.k) {
      case 'name':
      case 'attr':
        return this.classOfEntity(this.project.entityOfExpr(info, expr));
      case 'subscript':
        for (const part of expr.slice) {
          const found = this.fromAnnotation(info, part, depth + 1);
          if (found) return found;
        }
        return null;
      case 'binop_or':
        return this.fromAnnotation(info, expr.left, depth + 1) ?? this.fromAnnotation(info, expr.right, depth + 1);
      case 'str': {
        // A forward reference such as "Circle | None" or "Optional[Node]": the first name that is a class.
        for (const word of expr.value.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
          const binding = info.globals.get(word);
          const cls = binding ? this.classOfEntity(this.project.valueOfBinding(info, binding)) : null;
          if (cls) return cls;
        }
        return null;
      }
      default:
        return null;
    }
  }
}
