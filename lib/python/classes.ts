// The inheritance graph that ties overriding methods together, and the members each class defines.
import type { Expr, FunctionFact, Param } from './facts.js';
import type { Entity, FileInfo, Project } from './project.js';

export interface ClassRef {
  module: string;
  owner: string;
}

const key = (c: ClassRef) => `${c.module}:${c.owner}`;
const parseKey = (k: string): ClassRef => ({ module: k.slice(0, k.indexOf(':')), owner: k.slice(k.indexOf(':') + 1) });

/**
 * A file's first parameters by binding and functions by scope (the first of each, as `find` gives), made once: selfClass
 * answers for every attribute receiver that inference or the class model looks at.
 */
const methods = new WeakMap<FileInfo, { firstParams: Map<number, Param>; functions: Map<number, FunctionFact> }>();

function methodsOf(info: FileInfo): { firstParams: Map<number, Param>; functions: Map<number, FunctionFact> } {
  let found = methods.get(info);
  if (!found) {
    const firstParams = new Map<number, Param>();
    for (const p of info.facts.params) if (p.index === 0 && !firstParams.has(p.binding)) firstParams.set(p.binding, p);
    const functions = new Map<number, FunctionFact>();
    for (const f of info.facts.functions) if (!functions.has(f.scope)) functions.set(f.scope, f);
    methods.set(info, (found = { firstParams, functions }));
  }
  return found;
}

export class ClassModel {
  /** Resolved on first use: a partial load (load-project.ts) then reads only the base classes' modules a rename needs. */
  private readonly bases = new Map<string, () => ClassRef[]>();
  private readonly members = new Map<string, Set<string>>();
  private readonly bySubclass = new Map<string, ClassRef | null>();
  private readonly groups = new Map<string, Map<string, ClassRef>>();
  private readonly definerCount = new Map<string, number>();

  constructor(private readonly project: Project) {
    for (const info of project.files.values()) {
      // Each class's own names, from one pass over the file's bindings (not one pass per class).
      const namesByScope = new Map<number, string[]>();
      if (info.facts.classes.length > 0) for (const b of info.facts.bindings) (namesByScope.get(b.scope) ?? namesByScope.set(b.scope, []).get(b.scope)!).push(b.name);
      for (const cls of info.facts.classes) {
        const ref = { module: info.module, owner: project.ownerPath(info, cls.scope) };
        let resolved: ClassRef[] | undefined;
        this.bases.set(key(ref), () => (resolved ??= cls.bases.map((b) => this.classOfEntity(project.follow(project.entityOfExpr(info, b)))).filter((c): c is ClassRef => c !== null)));
        const names = this.memberSet(ref);
        for (const name of namesByScope.get(cls.scope) ?? []) names.add(name);
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

  /**
   * The class that identifies member `name` of `cls`: overriding methods share it, and so do methods of
   * unrelated bases that a common subclass inherits together (`class D(A, B)` ties `A.m` and `B.m`).
   */
  memberRoot(cls: ClassRef, name: string): ClassRef {
    const local = this.topDefiner(cls, name);
    return this.rootGroups(name).get(key(local)) ?? local;
  }

  /** Per member name: each top definer that shares a subclass with another → the group's representative. */
  private rootGroups(name: string): Map<string, ClassRef> {
    const cached = this.groups.get(name);
    if (cached) return cached;
    if (this.definers(name) < 2) {
      this.groups.set(name, new Map());
      return this.groups.get(name)!;
    }
    const parent = new Map<string, string>();
    const find = (k: string): string => {
      let root = k;
      while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!;
      return root;
    };
    const refs = new Map<string, ClassRef>();
    for (const cls of this.bases.keys()) {
      const tops = new Map<string, ClassRef>();
      for (const ancestor of this.ancestry(parseKey(cls))) {
        if (this.members.get(key(ancestor))?.has(name)) {
          const top = this.topDefiner(ancestor, name);
          tops.set(key(top), top);
        }
      }
      if (tops.size < 2) continue;
      const [first, ...rest] = [...tops.keys()].sort();
      for (const k of [first!, ...rest]) refs.set(k, tops.get(k)!);
      for (const k of rest) {
        const [a, b] = [find(first!), find(k)].sort();
        if (a !== b) parent.set(b!, a!);
      }
    }
    const out = new Map<string, ClassRef>();
    for (const k of refs.keys()) out.set(k, refs.get(find(k))!);
    this.groups.set(name, out);
    return out;
  }

  /** `cls` and every class it inherits from. */
  ancestry(cls: ClassRef): ClassRef[] {
    const out: ClassRef[] = [cls];
    const seen = new Set<string>([key(cls)]);
    for (let i = 0; i < out.length; i++) {
      for (const base of this.bases.get(key(out[i]!))?.() ?? []) if (!seen.has(key(base))) seen.add(key(base)), out.push(base);
    }
    return out;
  }

  /**
   * How many classes define `name` (0, 1 or 2 meaning more). A group needs two and a base that defines the name needs
   * one besides the class: with fewer, no base class needs resolving, which in a partial load (load-project.ts) would
   * read every base's module. Every class that defines the name mentions it, so a partial load has them all.
   */
  private definers(name: string): number {
    let count = this.definerCount.get(name);
    if (count === undefined) {
      count = 0;
      for (const names of this.members.values()) if (names.has(name) && ++count > 1) break;
      this.definerCount.set(name, count);
    }
    return count;
  }

  /** The topmost class in `cls`'s ancestry that defines `name`. */
  private topDefiner(cls: ClassRef, name: string): ClassRef {
    if (this.definers(name) - (this.members.get(key(cls))?.has(name) ? 1 : 0) === 0) return cls;
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
    const { firstParams, functions } = methodsOf(info);
    const param = firstParams.get(ref.resolved.binding);
    if (!param) return null;
    const fn = functions.get(param.scope);
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
      queue.push(...(this.bases.get(key(current))?.() ?? []));
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
      if (this.inherits(parseKey(sub), cls)) {
        const root = this.memberRoot(parseKey(sub), name);
        found.set(key(root), root);
      }
    }
    const result = found.size === 1 ? [...found.values()][0]! : null;
    this.bySubclass.set(memo, result);
    return result;
  }

  private inherits(cls: ClassRef, ancestor: ClassRef, seen = new Set<string>()): boolean {
    for (const base of this.bases.get(key(cls))?.() ?? []) {
      if (seen.has(key(base))) continue;
      seen.add(key(base));
      if (key(base) === key(ancestor) || this.inherits(base, ancestor, seen)) return true;
    }
    return false;
  }

  basesOf(cls: ClassRef): ClassRef[] {
    return this.bases.get(key(cls))?.() ?? [];
  }

  defines(cls: ClassRef, name: string): boolean {
    return this.members.get(key(cls))?.has(name) ?? false;
  }
}
