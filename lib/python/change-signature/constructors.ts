// change-signature of `__init__`: Python calls it for every call of the class, so those calls are its call sites too
// (the class's own and those of subclasses that inherit it), beside `super().__init__(…)`. Calls of a class tug
// cannot name (`cls(…)`, `type(self)(…)`, `self.__class__(…)` inside the hierarchy) are listed as unsure.
import { lineStarts, positionOf } from '../../core/text.js';
import type { Entity } from '../project.js';
import type { Occurrence, Resolver } from '../references.js';
import type { UnsureJSON } from '../unsure.js';

/** The classes whose instances `__init__` (the entity) initializes: `module:owner` keys. */
function initialized(resolver: Resolver, init: Entity): Array<{ key: string; entity: Entity }> {
  const wanted = resolver.key(init);
  const out: Array<{ key: string; entity: Entity }> = [];
  for (const info of resolver.project.files.values()) {
    for (const c of info.facts.classes) {
      const owner = resolver.project.ownerPath(info, c.scope);
      if (resolver.key({ kind: 'class-member', module: info.module, owner, name: '__init__' }) !== wanted) continue;
      const binding = info.bindings.get(c.binding);
      if (binding) out.push({ key: `${info.module}:${owner}`, entity: resolver.project.entityOfBinding(info, binding) });
    }
  }
  return out;
}

/** Calls of those classes (`Cls(…)`, `mod.Cls(…)`): the constructor's call sites beyond `__init__`'s own occurrences. */
export function constructorCalls(resolver: Resolver, init: Entity): Occurrence[] {
  return initialized(resolver, init).flatMap(({ entity }) => resolver.occurrences(entity).filter((o) => o.kind === 'call' || o.kind === 'attribute'));
}

/**
 * `cls(…)`, `type(self)(…)`, `self.__class__(…)` inside a class of the hierarchy: each builds a class of it, whose
 * `__init__` is one of the group (overrides are one symbol, and change-signature requires them to agree), so they are
 * call sites too. The occurrence is where the worker finds the callee: `cls`, `type`, or the `__class__` attribute.
 */
export function instanceClassCalls(resolver: Resolver, init: Entity): Occurrence[] {
  const classes = new Set(initialized(resolver, init).map((c) => c.key));
  const out: Occurrence[] = [];
  for (const info of resolver.project.files.values()) {
    for (const call of info.facts.calls) {
      const callee = call.callee;
      let at: number | undefined;
      if ((callee.k === 'name' && callee.name === 'cls') || (callee.k === 'call' && callee.func.k === 'name' && callee.func.name === 'type')) at = call.span[0];
      else if (callee.k === 'attr' && callee.attr === '__class__') at = info.facts.attributes.find((a) => a.attr === '__class__' && a.span[0] >= call.span[0] && a.span[1] <= call.span[1])?.span[0];
      if (at === undefined) continue;
      const path = resolver.project.ownerPath(info, call.scope).split('.');
      if (path.some((_, i) => classes.has(`${info.module}:${path.slice(0, i + 1).join('.')}`))) out.push({ file: info.file, span: [at, at], kind: 'call' });
    }
  }
  return out;
}

/** Plain references of those classes: where one is passed to a call (the worker says which), calls through it construct. */
export function classReferences(resolver: Resolver, init: Entity): Occurrence[] {
  return initialized(resolver, init).flatMap(({ entity }) => resolver.occurrences(entity).filter((o) => o.kind === 'reference'));
}

/** Such a call the worker did not find as a call: listed, never left silently. */
export function unsureCall(file: string, bytes: Uint8Array, offset: number): UnsureJSON {
  return { file, ...positionOf(lineStarts(bytes), offset), text: 'cls(…)', reason: 'untyped_receiver', renamed: false };
}
