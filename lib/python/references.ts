// Finds the symbol under a cursor and every place that names it, across the workspace, as (file, span) occurrences.
import { TugError } from '../core/errors.js';
import { ClassModel } from './classes.js';
import type { Call, Span } from './facts.js';
import { lastName } from './annotations.js';
import { TypeInference } from './inference.js';
import { absoluteModule } from './modules.js';
import { aliasName, MethodAliases } from './method-aliases.js';
import { RecordFields } from './record-fields.js';
import { entityKey, type Entity, type FileInfo, type Project } from './project.js';

export type OccurrenceKind = 'definition' | 'reference' | 'call' | 'import' | 'attribute' | 'keyword' | 'all';

export interface Occurrence {
  file: string;
  span: Span;
  kind: OccurrenceKind;
  /** The text at the span when it is not the symbol's name: the keyword attrs makes of a private field (`_x` → `x`). */
  keyword?: string;
}

export class Resolver {
  readonly classes: ClassModel;
  readonly types: TypeInference;
  readonly records: RecordFields;
  readonly aliases: MethodAliases;

  constructor(readonly project: Project) {
    this.classes = new ClassModel(project);
    this.types = new TypeInference(project, this.classes);
    this.records = new RecordFields(project, this.classes);
    this.aliases = new MethodAliases(project, this.classes, this.types);
  }

  /** Class members are identified by the topmost class defining them, so overrides are one symbol. */
  normalize(entity: Entity): Entity {
    if (entity.kind !== 'class-member') return entity;
    const root = this.classes.memberRoot({ module: entity.module, owner: entity.owner }, entity.name);
    return { ...entity, module: root.module, owner: root.owner };
  }

  key(entity: Entity | null): string | null {
    return entity ? entityKey(this.normalize(entity)) : null;
  }

  attributeEntity(info: FileInfo, index: number): Entity | null {
    const attr = info.facts.attributes[index]!;
    const direct = this.project.entityOfExpr(info, { k: 'attr', value: attr.receiver, attr: attr.attr });
    return direct ?? this.types.memberOf(info, attr.receiver, attr.attr, attr.scope);
  }

  /** The symbol at a byte offset: a binding, a name, an attribute, an imported name, a keyword argument or an `__all__` entry. */
  entityAt(info: FileInfo, offset: number): Entity | null {
    const inside = (span: Span) => span[0] <= offset && offset <= span[1];
    const f = info.facts;
    for (const b of f.bindings) if (inside(b.span) && !info.importOf.has(b.id)) return this.bindingEntity(info, b.id);
    for (const fact of f.imports) {
      for (const [index, name] of fact.names.entries()) {
        if (name.asname_span && inside(name.asname_span) && name.binding !== null) return this.bindingEntity(info, name.binding);
        if (inside(name.name_span)) {
          if (fact.kind === 'import') return { kind: 'module', module: dottedPrefixAt(name.name, name.name_span[0], offset) };
          return this.project.entityOfImport(info, fact, index);
        }
      }
      if (fact.kind === 'from' && fact.module && fact.module_span && inside(fact.module_span)) {
        const absolute = absoluteModule(info.file, info.module, fact.level, fact.module);
        if (absolute) {
          const written = dottedPrefixAt(fact.module, fact.module_span[0], offset).split('.').length;
          const dropped = fact.module.split('.').length - written;
          return { kind: 'module', module: absolute.split('.').slice(0, absolute.split('.').length - dropped).join('.') };
        }
      }
    }
    for (const ref of f.references) if (inside(ref.span)) return this.project.entityOfReference(info, ref);
    for (const [index, attr] of f.attributes.entries()) if (inside(attr.span)) return this.attributeEntity(info, index);
    for (const call of f.calls) {
      for (const kw of call.keywords) if (inside(kw.span)) return this.parameterOf(info, call, kw.name) ?? this.fieldOf(info, call, kw.name);
    }
    for (const entry of f.all?.entries ?? []) if (inside(entry.span)) return this.project.resolveAttr(info.module, entry.value);
    return null;
  }

  private bindingEntity(info: FileInfo, id: number): Entity {
    return this.project.entityOfBinding(info, info.bindings.get(id)!);
  }

  /** The parameter binding named `name` of the function a call goes to (through `functools.partial(f, …)` too). */
  parameterOf(info: FileInfo, call: Pick<Call, 'callee' | 'scope' | 'args'>, name: string): Entity | null {
    let target = this.calleeEntity(info, call.callee, call.scope);
    const first = call.args?.[0];
    if (first && lastName(call.callee) === 'partial' && (!target || target.kind === 'external')) target = this.calleeEntity(info, first, call.scope);
    const fn = (target && this.callableOf(target)) ?? this.instanceCall(info, call.callee, target);
    if (!fn) return null;
    const param = fn.info.facts.params.find((p) => p.scope === fn.scope && p.name === name);
    return param ? this.project.entityOfBinding(fn.info, fn.info.bindings.get(param.binding)!) : null;
  }

  /**
   * The record field (dataclass, attrs, NamedTuple, TypedDict, pydantic) a keyword names: at a call of the class or a
   * subclass whose `__init__` is generated, of `obj._replace(…)`, or of `dataclasses.replace(obj, …)`; else null.
   */
  fieldOf(info: FileInfo, call: Pick<Call, 'callee' | 'scope' | 'args'>, name: string): Entity | null {
    const callee = this.calleeEntity(info, call.callee, call.scope);
    const at = this.records.fieldCall(info, call, callee, (expr) => this.types.inferClass(info, expr));
    if (!at) return null;
    // A hand-written `__init__` takes the keywords itself (parameterOf answers for it).
    if (callee && this.classes.classOfEntity(callee) && this.functionOf(this.normalizeCallable(callee))) return null;
    const owner = this.classes.definingClass(at.cls, name);
    return this.records.isField(owner, name) ? { kind: 'class-member', module: owner.module, owner: owner.owner, name } : null;
  }

  /** The constructor keyword of a record field (attrs drops a private field's leading underscores). */
  fieldKeyword(entity: Entity): string | null {
    if (entity.kind !== 'class-member') return null;
    const root = this.normalize(entity) as Extract<Entity, { kind: 'class-member' }>;
    return this.records.keywordOf({ module: root.module, owner: root.owner }, root.name);
  }

  /** Whether the entity is a field of a class with a generated `__init__`, so keywords name it too. */
  isRecordField(entity: Entity): boolean {
    if (entity.kind !== 'class-member') return false;
    const root = this.normalize(entity) as Extract<Entity, { kind: 'class-member' }>;
    return this.records.isField({ module: root.module, owner: root.owner }, root.name);
  }

  private calleeEntity(info: FileInfo, callee: import('./facts.js').Expr, scope: number): Entity | null {
    const direct = this.project.follow(this.project.entityOfExpr(info, callee));
    if (direct || callee.k !== 'attr') return direct;
    return this.types.memberOf(info, callee.value, callee.attr, scope);
  }

  /**
   * The function a call of `target` runs: the target's own `def`, or through method aliases (`_f = f` in a class body,
   * `self.f = other.f`) when every value stored under that name leads to the same function.
   */
  private callableOf(target: Entity, depth = 0): { info: FileInfo; scope: number; binding: number } | null {
    const own = this.functionOf(this.normalizeCallable(target));
    if (own || depth > 4 || target.kind !== 'class-member') return own;
    const values = this.aliases.valuesOf(this.normalize(target));
    if (values.length === 0 || values.some((v) => v.entity === null)) return null;
    const found = values.map((v) => this.callableOf(v.entity!, depth + 1));
    const first = found[0];
    return first && found.every((f) => f && f.info === first.info && f.scope === first.scope) ? first : null;
  }

  /** Calling an instance of a known class runs the class's `__call__` (`proc = FakePopen(); proc(stdin=…)`). */
  private instanceCall(info: FileInfo, callee: import('./facts.js').Expr, target: Entity | null): { info: FileInfo; scope: number; binding: number } | null {
    if (target && (this.classes.classOfEntity(target) || this.functionOf(target))) return null;
    const instance = this.types.inferClass(info, callee);
    if (!instance) return null;
    const owner = this.classes.definingClass(instance, '__call__');
    return this.functionOf({ kind: 'class-member', module: owner.module, owner: owner.owner, name: '__call__' });
  }

  /** Whether the call goes to a member that stores a method tug cannot type under the name `fn` (`self.f = other.f`). */
  callsUntypedAlias(info: FileInfo, call: Pick<Call, 'callee' | 'scope'>, fn: string): boolean {
    const target = this.calleeEntity(info, call.callee, call.scope);
    if (!target || target.kind !== 'class-member' || this.functionOf(this.normalizeCallable(target))) return false;
    return this.aliases.valuesOf(this.normalize(target)).some((v) => v.entity === null && aliasName(v.expr) === fn);
  }

  /** Calling a class runs its `__init__`. */
  private normalizeCallable(entity: Entity): Entity {
    const cls = this.classes.classOfEntity(entity);
    return cls ? this.normalize({ kind: 'class-member', module: cls.module, owner: cls.owner, name: '__init__' }) : this.normalize(entity);
  }

  /** The function scope defining a function or method entity. */
  functionOf(entity: Entity): { info: FileInfo; scope: number; binding: number } | null {
    if (entity.kind !== 'module-attr' && entity.kind !== 'class-member') return null;
    const info = this.project.byModule.get(entity.module);
    if (!info) return null;
    const owner = entity.kind === 'class-member' ? entity.owner : '';
    for (const fn of info.facts.functions) {
      const binding = info.bindings.get(fn.binding);
      if (binding?.name === entity.name && this.project.ownerPath(info, binding.scope) === owner) return { info, scope: fn.scope, binding: fn.binding };
    }
    return null;
  }

  /** Every place a module's own name is written: import statements, dotted chains, and names bound to it. */
  moduleOccurrences(module: string, only?: ReadonlySet<string>): Occurrence[] {
    const parts = module.split('.');
    const last = parts.length - 1;
    const out: Occurrence[] = [];
    const component = (text: string, start: number, index: number): Span => {
      const pieces = text.split('.');
      const before = pieces.slice(0, index).join('.');
      const offset = start + Buffer.byteLength(before) + (index > 0 ? 1 : 0);
      return [offset, offset + Buffer.byteLength(pieces[index]!)];
    };
    const within = (name: string) => name === module || name.startsWith(`${module}.`);
    for (const info of this.project.files.values()) {
      if (only && !only.has(info.file)) continue;
      for (const fact of info.facts.imports) {
        if (fact.kind === 'import') {
          for (const name of fact.names) if (within(name.name)) out.push({ file: info.file, span: component(name.name, name.name_span[0], last), kind: 'import' });
          continue;
        }
        const absolute = absoluteModule(info.file, info.module, fact.level, fact.module);
        if (absolute && within(absolute) && fact.module && fact.module_span) {
          const index = last - (absolute.split('.').length - fact.module.split('.').length);
          if (index >= 0) out.push({ file: info.file, span: component(fact.module, fact.module_span[0], index), kind: 'import' });
        }
        if (absolute) {
          for (const name of fact.names) if (`${absolute}.${name.name}` === module) out.push({ file: info.file, span: name.name_span, kind: 'import' });
        }
      }
      for (const attr of info.facts.attributes) {
        if (attr.attr !== parts[last]) continue;
        const entity = this.project.entityOfExpr(info, { k: 'attr', value: attr.receiver, attr: attr.attr });
        if (entity?.kind === 'module' && entity.module === module) out.push({ file: info.file, span: attr.span, kind: 'attribute' });
      }
      for (const ref of info.facts.references) {
        if (ref.name !== parts[last]) continue;
        const entity = this.project.entityOfReference(info, ref);
        if (entity?.kind === 'module' && entity.module === module) out.push({ file: info.file, span: ref.span, kind: 'reference' });
      }
    }
    const seen = new Set<string>();
    return out
      .filter((o) => (seen.has(`${o.file}:${o.span[0]}`) ? false : seen.add(`${o.file}:${o.span[0]}`)))
      .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.span[0] - b.span[0]));
  }

  /**
   * Every occurrence of the entity in the workspace, sorted by file and offset, without duplicates; with `only`, in
   * those files alone (the others are still read to resolve names).
   */
  occurrences(target: Entity, only?: ReadonlySet<string>): Occurrence[] {
    if (target.kind === 'module') return this.moduleOccurrences(target.module, only);
    const wanted = this.key(target);
    const out = new Map<string, Occurrence>();
    const add = (file: string, span: Span, kind: OccurrenceKind, keyword?: string) => {
      const id = `${file}:${span[0]}:${span[1]}`;
      if (!out.has(id)) out.set(id, keyword === undefined ? { file, span, kind } : { file, span, kind, keyword });
    };
    const param = this.parameterFunction(target);
    const field = this.isRecordField(target);
    const fieldKeyword = field ? this.fieldKeyword(target) : null;
    // Every occurrence is written as the name itself: comparing text first keeps other names unresolved (cheaper,
    // and a partial load then never asks for modules that only other names need).
    const name = nameOf(target);
    for (const info of this.project.files.values()) {
      if (only && !only.has(info.file)) continue;
      const f = info.facts;
      for (const b of f.bindings) {
        if (b.name !== name || info.importOf.has(b.id)) continue;
        if (this.key(this.project.entityOfBinding(info, b)) === wanted) add(info.file, b.span, 'definition');
      }
      for (const fact of f.imports) {
        for (const [index, imported] of fact.names.entries()) {
          if (fact.kind === 'from' && imported.name === name && this.key(this.project.entityOfImport(info, fact, index)) === wanted) add(info.file, imported.name_span, 'import');
          if (imported.asname === name && imported.asname_span && imported.binding !== null && this.key(this.project.entityOfBinding(info, info.bindings.get(imported.binding)!)) === wanted) {
            add(info.file, imported.asname_span, 'import');
          }
        }
      }
      const callSpans = new Set(f.calls.map((c) => (c.callee.k === 'name' && c.callee.ref !== undefined ? f.references[c.callee.ref]?.span[0] : undefined)));
      for (const ref of f.references) {
        if (ref.name === name && this.key(this.project.entityOfReference(info, ref)) === wanted) add(info.file, ref.span, callSpans.has(ref.span[0]) ? 'call' : 'reference');
      }
      for (const [index, attr] of f.attributes.entries()) {
        if (attr.attr === name && this.key(this.attributeEntity(info, index)) === wanted) add(info.file, attr.span, 'attribute');
      }
      for (const entry of f.all?.entries ?? []) {
        if (entry.value === name && this.key(this.project.resolveAttr(info.module, entry.value)) === wanted) add(info.file, entry.span, 'all');
      }
      if (param) {
        for (const call of f.calls) {
          for (const kw of call.keywords) {
            if (kw.name === param.name && this.key(this.parameterOf(info, call, kw.name)) === wanted) add(info.file, kw.span, 'keyword');
          }
        }
      }
      if (field) {
        for (const call of f.calls) {
          for (const kw of call.keywords) {
            if (kw.name !== fieldKeyword || this.key(this.fieldOf(info, call, name)) !== wanted) continue;
            add(info.file, kw.span, 'keyword', kw.name === name ? undefined : kw.name);
          }
        }
      }
    }
    return [...out.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.span[0] - b.span[0]));
  }

  private parameterFunction(entity: Entity): { name: string } | null {
    if (entity.kind !== 'local') return null;
    const info = this.project.files.get(entity.file);
    const binding = info?.bindings.get(entity.binding);
    return binding && info!.facts.params.some((p) => p.binding === binding.id) ? { name: binding.name } : null;
  }
}

/** The dotted name up to and including the component the offset falls in (`a.b.c`, cursor on b → `a.b`). */
function dottedPrefixAt(name: string, start: number, offset: number): string {
  const parts = name.split('.');
  let cursor = start;
  for (let i = 0; i < parts.length; i++) {
    cursor += Buffer.byteLength(parts[i]!);
    if (offset <= cursor) return parts.slice(0, i + 1).join('.');
    cursor += 1;
  }
  return name;
}

export function nameOf(entity: Entity): string {
  if (entity.kind === 'module') return entity.module.split('.').pop()!;
  return entity.name;
}

export function requireRenamable(entity: Entity | null, where: string): Entity {
  if (!entity) throw new TugError('SymbolNotFound', `no symbol at ${where}`, { details: { location: where } });
  if (entity.kind === 'external') {
    throw new TugError('UnsupportedOperation', `${entity.name} is defined outside the workspace and cannot be renamed here`, {
      details: { operation: 'rename-symbol', reason: 'symbol outside the workspace' },
    });
  }
  return entity;
}
