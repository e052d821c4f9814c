// Static type inference for receivers: what class an expression's value has, through declared and assigned types.
import type { Attribute, Binding, Expr, FunctionFact } from './facts.js';
import { classOfAnnotation, lastName } from './annotations.js';
import type { ClassModel, ClassRef } from './classes.js';
import type { Entity, FileInfo, Project } from './project.js';

/** A backstop: cycles through bindings are cut by `active`, long chains (a.b().c.d()) stay well below it. */
const MAX_DEPTH = 48;
const key = (c: ClassRef) => `${c.module}:${c.owner}`;
/** Decorators that make a method read like an attribute whose type is the return annotation. */
const PROPERTIES = new Set(['property', 'cached_property']);

/** An annotation to read, where it is written, and the class `Self` stands for there. */
interface Declared {
  info: FileInfo;
  expr: Expr;
  self: ClassRef | null;
}

export class TypeInference {
  /** Class → attribute name → `self.name = …` stores in its methods. */
  private storeIndex: Map<string, Map<string, Array<{ info: FileInfo; attr: Attribute }>>> | undefined;
  /** Bindings whose type is being inferred, to cut cycles. */
  private readonly active = new Set<string>();

  constructor(
    private readonly project: Project,
    private readonly classes: ClassModel,
  ) {}

  /** Built on first use: renames of functions and locals never need it. */
  private get stores(): Map<string, Map<string, Array<{ info: FileInfo; attr: Attribute }>>> {
    if (this.storeIndex) return this.storeIndex;
    const stores = new Map<string, Map<string, Array<{ info: FileInfo; attr: Attribute }>>>();
    for (const info of this.project.files.values()) {
      for (const attr of info.facts.attributes) {
        if (attr.ctx !== 'store' || attr.value === undefined) continue;
        const owner = this.classes.selfClass(info, attr.receiver);
        if (!owner) continue;
        let byName = stores.get(key(owner));
        if (!byName) stores.set(key(owner), (byName = new Map()));
        const list = byName.get(attr.attr) ?? [];
        list.push({ info, attr });
        byName.set(attr.attr, list);
      }
    }
    this.storeIndex = stores;
    return stores;
  }

  /** The class of the value an expression evaluates to (an instance, or the class itself for class objects). */
  inferClass(info: FileInfo, expr: Expr, depth = 0): ClassRef | null {
    if (depth > MAX_DEPTH) return null;
    switch (expr.k) {
      case 'name': {
        const self = this.classes.selfClass(info, expr);
        if (self) return self;
        const ref = expr.ref === undefined ? undefined : info.facts.references[expr.ref];
        if (ref && 'binding' in ref.resolved) {
          const binding = info.bindings.get(ref.resolved.binding);
          if (binding && !info.importOf.has(binding.id)) return this.ofBinding(info, binding, depth + 1);
        }
        return this.ofEntity(this.project.entityOfExpr(info, expr), depth + 1);
      }
      case 'attr': {
        const entity = this.project.entityOfExpr(info, expr);
        if (entity) return this.ofEntity(entity, depth + 1);
        const owner = this.inferClass(info, expr.value, depth + 1);
        return owner ? this.memberType(owner, expr.attr, depth + 1) : null;
      }
      case 'iter': {
        // `for x in xs` where xs is declared list[C] / Iterable[C]: x is a C.
        const declared = this.declaredType(info, expr.of, depth + 1);
        if (declared?.expr.k === 'subscript') {
          const last = declared.expr.slice[declared.expr.slice.length - 1];
          return last ? this.fromAnnotation(declared.info, last, declared.self, depth + 1) : null;
        }
        return null;
      }
      case 'call':
        return this.callResult(info, expr, depth + 1);
      case 'item': {
        // `a, b = f()` where f is declared to return tuple[A, B]: b is a B.
        const declared = this.declaredType(info, expr.of, depth + 1);
        if (declared?.expr.k !== 'subscript' || !['Tuple', 'tuple'].includes(lastName(declared.expr.value))) return null;
        const part = declared.expr.slice[expr.index];
        return part ? this.fromAnnotation(declared.info, part, declared.self, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /** The class an expression names as a class object: `C`, `mod.C`, an alias `MD = C`, `cls` in a classmethod. */
  classObject(info: FileInfo, expr: Expr): ClassRef | null {
    const direct = this.classes.classOfEntity(this.project.follow(this.project.entityOfExpr(info, expr)));
    if (direct) return direct;
    const self = this.classes.selfClass(info, expr);
    if (!self || expr.k !== 'name' || expr.ref === undefined) return null;
    const ref = info.facts.references[expr.ref]!;
    const param = 'binding' in ref.resolved ? info.facts.params.find((p) => p.binding === (ref.resolved as { binding: number }).binding) : undefined;
    const fn = param && info.facts.functions.find((f) => f.scope === param.scope);
    return fn && hasDecorator(fn, 'classmethod') ? self : null;
  }

  /** The member `receiver.attr` names: found through the receiver's class (or the bases, for `super()`). */
  memberOf(info: FileInfo, receiver: Expr, attr: string, scope: number, depth = 0): Entity | null {
    return this.lookupMember(info, receiver, attr, scope, depth)?.entity ?? null;
  }

  /** memberOf, with the receiver's class (inferred once, so chains cost linear time). */
  private lookupMember(info: FileInfo, receiver: Expr, attr: string, scope: number, depth: number): { entity: Entity; receiver: ClassRef } | null {
    if (depth > MAX_DEPTH) return null;
    const sup = this.superClass(info, receiver, scope);
    const owner = sup !== undefined ? sup : this.inferClass(info, receiver, depth + 1);
    if (!owner) return null;
    let defining = sup !== undefined ? this.inBases(owner, attr) : this.classes.definingClass(owner, attr);
    if (defining && !this.classes.defines(defining, attr)) defining = this.classes.subclassDefining(owner, attr) ?? defining;
    return defining ? { entity: { kind: 'class-member', module: defining.module, owner: defining.owner, name: attr }, receiver: owner } : null;
  }

  /** For `super()` / `super(C, self)`: the class whose bases are searched; undefined when not a super call. */
  private superClass(info: FileInfo, receiver: Expr, scope: number): ClassRef | null | undefined {
    if (receiver.k !== 'call' || receiver.func.k !== 'name' || receiver.func.name !== 'super') return undefined;
    const ref = receiver.func.ref === undefined ? undefined : info.facts.references[receiver.func.ref];
    if (!ref || !('builtin' in ref.resolved)) return undefined;
    const first = receiver.args?.[0];
    if (first) return this.classObject(info, first);
    for (let s = info.scopes.get(scope); s && s.parent !== null; s = info.scopes.get(s.parent)) {
      const parent = info.scopes.get(s.parent);
      if (s.kind === 'function' && parent?.kind === 'class') return { module: info.module, owner: this.project.ownerPath(info, parent.id) };
    }
    return null;
  }

  /** The nearest base of `cls` (in order, depth first like the MRO of simple hierarchies) that defines `name`. */
  private inBases(cls: ClassRef, name: string): ClassRef | null {
    for (const base of this.classes.basesOf(cls)) {
      const found = this.classes.definingClass(base, name);
      if (this.classes.defines(found, name)) return found;
    }
    return null;
  }

  private ofBinding(info: FileInfo, binding: Binding, depth: number): ClassRef | null {
    const id = `${info.file}:${binding.id}`;
    if (this.active.has(id)) return null; // `node = node.next()`: no type from itself
    this.active.add(id);
    try {
      return this.bindingType(info, binding, depth);
    } finally {
      this.active.delete(id);
    }
  }

  private bindingType(info: FileInfo, binding: Binding, depth: number): ClassRef | null {
    if (binding.type_hint) return this.fromAnnotation(info, binding.type_hint, null, depth);
    const decorated = this.decoratedType(info, binding, depth);
    if (decorated !== undefined) return decorated;
    if (!binding.value) return null;
    const value = this.inferClass(info, binding.value, depth);
    if (binding.kind === 'with_target' && value) return this.methodResult(value, '__enter__', value, depth) ?? value;
    return value;
  }

  /** A module attribute or class member seen from outside: a class, a variable with a type, a decorated function. */
  private ofEntity(entity: Entity | null, depth: number): ClassRef | null {
    const followed = this.project.follow(entity);
    const cls = this.classes.classOfEntity(followed);
    if (cls || !followed || followed.kind !== 'module-attr') return cls;
    const target = this.project.byModule.get(followed.module);
    const binding = target?.globals.get(followed.name);
    return target && binding && !target.importOf.has(binding.id) ? this.ofBinding(target, binding, depth) : null;
  }

  /** A function name after its decorators: the class of the object the outermost project decorator returns. */
  private decoratedType(info: FileInfo, binding: Binding, depth: number): ClassRef | null | undefined {
    if (binding.kind !== 'function' && binding.kind !== 'class') return undefined;
    const fn = info.facts.functions.find((f) => f.binding === binding.id);
    const decorator = fn?.decorators[0];
    if (!decorator) return undefined;
    const target = decorator.k === 'call' ? decorator.func : decorator;
    const cls = this.classObject(info, target);
    if (cls) return cls;
    const returns = this.functionOf(this.project.follow(this.project.entityOfExpr(info, target)));
    if (returns?.fn.returns) return this.fromAnnotation(returns.info, returns.fn.returns, null, depth);
    return undefined;
  }

  private callResult(info: FileInfo, expr: Extract<Expr, { k: 'call' }>, depth: number): ClassRef | null {
    const cls = this.classObject(info, expr.func);
    if (cls) return cls;
    const called = this.calledFunction(info, expr, depth);
    if (!called) {
      // A value of class C that C's instances could not be called as (no __call__): the class object itself,
      // as with `context_class: type[Context] = Context` then `self.context_class(...)`.
      const value = expr.func.k === 'attr' ? this.inferClass(info, expr.func, depth) : null;
      return value && !this.classes.defines(this.classes.definingClass(value, '__call__'), '__call__') ? value : null;
    }
    if (called.fn.returns) return this.fromAnnotation(called.info, called.fn.returns, called.receiver, depth);
    const gives = called.fn.gives;
    if (called.receiver && (gives === 'self' || gives === 'cls' || gives === 'cls-object')) return called.receiver;
    // An unannotated factory that returns a new instance of a class named in its return statements.
    return called.fn.makes && depth < MAX_DEPTH ? this.classObject(called.info, called.fn.makes) : null;
  }

  /** The function a call runs — a method found through its receiver, a function, or the `__call__` of an instance — and the receiver's class. */
  private calledFunction(info: FileInfo, expr: Extract<Expr, { k: 'call' }>, depth: number): { info: FileInfo; fn: FunctionFact; receiver: ClassRef | null } | null {
    if (expr.func.k === 'attr') {
      const direct = this.project.entityOfExpr(info, expr.func);
      const found = direct ? null : this.lookupMember(info, expr.func.value, expr.func.attr, -1, depth + 1);
      const member = direct ?? found?.entity;
      if (member?.kind === 'class-member') {
        const owner = { module: member.module, owner: member.owner };
        // `C.create()` on a class named directly: the receiver is C itself.
        const receiver = found?.receiver ?? this.classObject(info, expr.func.value) ?? owner;
        return this.method(owner, member.name, receiver);
      }
    }
    // Calling an instance (a class used as a decorator, for one) runs its `__call__`.
    const instance = this.inferClass(info, expr.func, depth);
    if (instance) return this.method(instance, '__call__', instance);
    const found = this.functionOf(this.project.follow(this.project.entityOfExpr(info, expr.func)));
    return found ? { ...found, receiver: null } : null;
  }

  private method(cls: ClassRef, name: string, receiver: ClassRef): { info: FileInfo; fn: FunctionFact; receiver: ClassRef } | null {
    const defining = this.classes.definingClass(cls, name);
    const found = this.functionOf({ kind: 'class-member', module: defining.module, owner: defining.owner, name });
    return found ? { ...found, receiver } : null;
  }

  /** What calling method `name` of `cls` returns, with `Self`, `return self` and `return cls(...)` meaning `receiver`. */
  private methodResult(cls: ClassRef, name: string, receiver: ClassRef, depth: number): ClassRef | null {
    const found = this.method(cls, name, receiver);
    if (!found) return null;
    if (found.fn.returns) return this.fromAnnotation(found.info, found.fn.returns, receiver, depth);
    if (found.fn.gives === 'self' || found.fn.gives === 'cls' || found.fn.gives === 'cls-object') return receiver;
    return found.fn.makes && depth < MAX_DEPTH ? this.classObject(found.info, found.fn.makes) : null;
  }

  /** The type of attribute `name` on instances of `cls`: class-level annotation or value, property, `self.name = …`. */
  memberType(cls: ClassRef, name: string, depth: number): ClassRef | null {
    const id = `member:${key(cls)}:${name}`;
    if (this.active.has(id)) return null; // `self.node = self.node.parent`: no type from itself
    this.active.add(id);
    try {
      return this.attributeType(cls, name, depth);
    } finally {
      this.active.delete(id);
    }
  }

  private attributeType(cls: ClassRef, name: string, depth: number): ClassRef | null {
    const declared = this.memberDeclared(cls, name, depth);
    if (declared) return this.fromAnnotation(declared.info, declared.expr, declared.self, depth + 1);
    const defining = this.classes.definingClass(cls, name);
    const scope = this.project.classScope(defining.module, defining.owner);
    const binding = scope?.info.facts.bindings.find((b) => b.scope === scope.scope.id && b.name === name && b.kind === 'variable' && b.value);
    if (scope && binding?.value) return this.inferClass(scope.info, binding.value, depth + 1);
    // A property without an annotation that builds a new instance (`return RequestDefinition(self, tag)`).
    const getter = scope?.info.facts.bindings.find((b) => b.scope === scope.scope.id && b.name === name && b.kind === 'function');
    const fn = getter ? scope!.info.facts.functions.find((f) => f.binding === getter.id) : undefined;
    if (fn?.makes && fn.decorators.some((d) => PROPERTIES.has(lastName(d)))) return this.classObject(scope!.info, fn.makes);
    for (const { info, attr } of this.storesOf(cls, name)) {
      const value = attr.value ? this.inferClass(info, attr.value, depth + 1) : null;
      if (value) return value;
    }
    return null;
  }

  /** The annotation that declares attribute `name` of `cls`, if any. */
  private memberDeclared(cls: ClassRef, name: string, depth: number): Declared | null {
    if (depth > MAX_DEPTH) return null;
    const defining = this.classes.definingClass(cls, name);
    const scope = this.project.classScope(defining.module, defining.owner);
    if (scope) {
      const { info } = scope;
      for (const b of info.facts.bindings) {
        if (b.scope !== scope.scope.id || b.name !== name) continue;
        if (b.type_hint) return { info, expr: b.type_hint, self: cls };
        const fn = b.kind === 'function' ? info.facts.functions.find((f) => f.binding === b.id) : undefined;
        if (fn?.returns && fn.decorators.some((d) => PROPERTIES.has(lastName(d)))) return { info, expr: fn.returns, self: cls };
      }
    }
    for (const { info, attr } of this.storesOf(cls, name)) if (attr.type_hint) return { info, expr: attr.type_hint, self: cls };
    return null;
  }

  private storesOf(cls: ClassRef, name: string): Array<{ info: FileInfo; attr: Attribute }> {
    const defining = this.classes.definingClass(cls, name);
    return this.stores.get(key(defining))?.get(name) ?? this.stores.get(key(cls))?.get(name) ?? [];
  }

  /** The annotation an expression was declared with: a name's or an attribute's. */
  private declaredType(info: FileInfo, expr: Expr, depth: number): Declared | null {
    if (expr.k === 'name' && expr.ref !== undefined) {
      const ref = info.facts.references[expr.ref];
      const binding = ref && 'binding' in ref.resolved ? info.bindings.get(ref.resolved.binding) : undefined;
      return binding?.type_hint ? { info, expr: binding.type_hint, self: null } : null;
    }
    if (expr.k === 'attr') {
      const owner = this.inferClass(info, expr.value, depth + 1);
      return owner ? this.memberDeclared(owner, expr.attr, depth + 1) : null;
    }
    if (expr.k === 'iter') {
      // An element of a container declared `list[T]`, `Iterator[tuple[A, B]]`, …: the last type argument.
      const container = this.declaredType(info, expr.of, depth + 1);
      const last = container?.expr.k === 'subscript' ? container.expr.slice[container.expr.slice.length - 1] : undefined;
      return container && last ? { ...container, expr: last } : null;
    }
    if (expr.k === 'call' && depth <= MAX_DEPTH) {
      const called = this.calledFunction(info, expr, depth + 1);
      return called?.fn.returns ? { info: called.info, expr: called.fn.returns, self: called.receiver } : null;
    }
    return null;
  }

  /** The function fact of a function or method entity. */
  functionOf(entity: Entity | null): { info: FileInfo; fn: FunctionFact } | null {
    if (!entity || (entity.kind !== 'module-attr' && entity.kind !== 'class-member')) return null;
    const info = this.project.byModule.get(entity.module);
    if (!info) return null;
    const owner = entity.kind === 'class-member' ? entity.owner : '';
    let found: FunctionFact | undefined;
    for (const fn of info.facts.functions) {
      const binding = info.bindings.get(fn.binding);
      // The last definition wins (an @overload group ends with the implementation).
      if (binding?.name === entity.name && this.project.ownerPath(info, binding.scope) === owner) found = fn;
    }
    return found ? { info, fn: found } : null;
  }

  /** `C`, `mod.C`, `Optional[C]`, `C | None`, `"C"`, `Self` → C. */
  fromAnnotation(info: FileInfo, expr: Expr, self: ClassRef | null, depth: number): ClassRef | null {
    return classOfAnnotation(this.project, this.classes, info, expr, self, depth);
  }
}

function hasDecorator(fn: FunctionFact, name: string): boolean {
  return fn.decorators.some((d) => lastName(d) === name);
}
