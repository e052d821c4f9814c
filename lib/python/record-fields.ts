// Classes whose `__init__` is generated from their fields — dataclasses, attrs, NamedTuple, TypedDict, pydantic models —
// so a field's name is also a keyword of the constructor, of `_replace(…)` and of `dataclasses.replace(obj, …)`: a
// field rename that left `Trivia(comment_ws=…)` alone broke every caller without a word (issue 28 §2).
import { lastName } from './annotations.js';
import type { ClassModel, ClassRef } from './classes.js';
import type { Call, ClassFact, Expr } from './facts.js';
import type { Entity, FileInfo, Project } from './project.js';

/** Decorators that write `__init__` from the class's fields, by the name they are imported under. */
const DECORATORS = new Set([
  'dataclasses.dataclass',
  'attr.s',
  'attr.attrs',
  'attr.define',
  'attr.frozen',
  'attr.mutable',
  'attr.dataclass',
  'attrs.define',
  'attrs.frozen',
  'attrs.mutable',
  'pydantic.dataclasses.dataclass',
]);
/** Bases whose subclasses get such an `__init__` (PEP 681's dataclass_transform bases included). */
const BASES = new Set(['typing.NamedTuple', 'typing_extensions.NamedTuple', 'typing.TypedDict', 'typing_extensions.TypedDict', 'pydantic.BaseModel', 'pydantic.main.BaseModel', 'msgspec.Struct']);
/** Functions that copy a record with some fields changed, keyed by field name: the record is their first argument. */
export const REPLACERS = new Set(['dataclasses.replace', 'attr.evolve', 'attrs.evolve', 'copy.replace']);
/** Field declarations by call (`x = attr.ib()`, `x: int = field(default=0)`). */
const FIELD_CALLS = new Set(['ib', 'attrib', 'field']);

type FieldAt = { cls: ClassRef } | null;

export class RecordFields {
  private readonly records = new Map<string, boolean>();

  constructor(
    private readonly project: Project,
    private readonly classes: ClassModel,
  ) {}

  /** The dotted name an expression stands for outside the workspace (`attr.s`, `dataclasses.dataclass`), else null. */
  externalName(info: FileInfo, expr: Expr): string | null {
    const target = expr.k === 'call' ? expr.func : expr;
    if (target.k === 'name') {
      const entity = this.project.follow(this.project.entityOfExpr(info, target));
      if (entity?.kind === 'external') return entity.name;
      if (entity?.kind === 'module' && !this.project.byModule.has(entity.module)) return entity.module;
      return null;
    }
    if (target.k === 'attr') {
      const base = this.externalName(info, target.value);
      return base === null ? null : `${base}.${target.attr}`;
    }
    return null;
  }

  private classFact(cls: ClassRef): { info: FileInfo; fact: ClassFact } | null {
    const info = this.project.byModule.get(cls.module);
    if (!info) return null;
    const fact = info.facts.classes.find((c) => this.project.ownerPath(info, c.scope) === cls.owner);
    return fact ? { info, fact } : null;
  }

  /** Whether the class (or a base) gets its `__init__` written from its fields. */
  isRecord(cls: ClassRef): boolean {
    const id = `${cls.module}:${cls.owner}`;
    const known = this.records.get(id);
    if (known !== undefined) return known;
    this.records.set(id, false);
    const found = this.classFact(cls);
    let answer = false;
    if (found) {
      const { info, fact } = found;
      answer =
        (fact.decorators ?? []).some((d) => DECORATORS.has(this.externalName(info, d) ?? '') || this.transformingFunction(info, d)) ||
        fact.bases.some((b) => BASES.has(this.externalName(info, b) ?? '')) ||
        this.classes.basesOf(cls).some((base) => this.isRecord(base) || this.transforming(this.classFact(base)));
    }
    this.records.set(id, answer);
    return answer;
  }

  /** PEP 681: a class (or a function) marked `@dataclass_transform()` makes its subclasses (or what it decorates) records. */
  private transforming(found: { info: FileInfo; fact: { decorators?: Expr[] } } | null): boolean {
    return (found?.fact.decorators ?? []).some((d) => /(^|\.)dataclass_transform$/.test(this.externalName(found!.info, d) ?? ''));
  }

  /** A class decorator that is a workspace function marked `@dataclass_transform()`. */
  private transformingFunction(info: FileInfo, decorator: Expr): boolean {
    const entity = this.project.follow(this.project.entityOfExpr(info, decorator.k === 'call' ? decorator.func : decorator));
    if (entity?.kind !== 'module-attr') return false;
    const owner = this.project.byModule.get(entity.module);
    const fact = owner?.facts.functions.find((f) => {
      const binding = owner.bindings.get(f.binding);
      return binding?.name === entity.name && owner.scopes.get(binding.scope)?.kind === 'module';
    });
    return fact ? this.transforming({ info: owner!, fact }) : false;
  }

  /**
   * The keyword the generated `__init__` takes for field `name` of `cls`: attrs drops the leading underscores of a
   * private field (`_x = attr.ib()` is `C(x=…)`); dataclasses and the others keep the name.
   */
  keywordOf(cls: ClassRef, name: string): string {
    if (!name.startsWith('_') || name.startsWith('__')) return name;
    const found = this.classFact(this.classes.definingClass(cls, name));
    const attrs = (found?.fact.decorators ?? []).some((d) => /^attrs?\./.test(this.externalName(found!.info, d) ?? ''));
    return attrs ? name.replace(/^_+/, '') : name;
  }

  /** Whether `name` is a field of the record class `cls` defines (an annotated class variable, or `attr.ib()`-style). */
  isField(cls: ClassRef, name: string): boolean {
    if (!this.isRecord(cls)) return false;
    const found = this.classFact(cls);
    if (!found) return false;
    const binding = found.info.facts.bindings.find((b) => b.scope === found.fact.scope && b.name === name);
    if (!binding) return false;
    const hint = binding.type_hint;
    if (hint && lastName(hint.k === 'subscript' ? hint.value : hint) !== 'ClassVar') return true;
    return binding.value?.k === 'call' && FIELD_CALLS.has(lastName(binding.value));
  }

  /**
   * The record class whose field a keyword of this call names: a call of the class (or a subclass) itself, of
   * `obj._replace(…)` or of `dataclasses.replace(obj, …)`. `callee` is what the call's callee resolved to.
   */
  fieldCall(info: FileInfo, call: Pick<Call, 'callee' | 'args'>, callee: Entity | null, inferClass: (expr: Expr) => ClassRef | null): FieldAt {
    const cls = this.classes.classOfEntity(callee);
    if (cls) return { cls };
    if (call.callee.k === 'attr' && call.callee.attr === '_replace') {
      const receiver = inferClass(call.callee.value);
      return receiver ? { cls: receiver } : null;
    }
    const first = call.args?.[0];
    if (first && REPLACERS.has(this.externalName(info, call.callee) ?? '')) {
      const record = inferClass(first);
      return record ? { cls: record } : null;
    }
    return null;
  }
}
