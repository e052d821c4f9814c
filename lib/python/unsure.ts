// Occurrences tug cannot prove: the old name on a receiver of unknown type, in getattr strings, behind decorators.
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { Expr, Span } from './facts.js';
import type { Entity, FileInfo } from './project.js';
import { REPLACERS } from './record-fields.js';
import type { Occurrence, Resolver } from './references.js';

export type UnsureReason = 'untyped_receiver' | 'dynamic_getattr' | 'decorator' | 'kwargs' | 'unresolved' | 'value_use';

export interface UnsureJSON {
  file: string;
  line: number;
  col: number;
  text: string;
  reason: UnsureReason;
  /** True when --include-unsure renamed it. */
  renamed: boolean;
}

export interface UnsureSite {
  file: string;
  span: Span;
  /** The source around the name, e.g. `arg.run` or `getattr(obj, "run")`. */
  text: string;
  reason: UnsureReason;
  /** The span is not the name (a `**mapping` whose keys may hold it): listed, never edited. */
  listedOnly?: boolean;
  /** The name is data there (a key of a mapping that becomes keywords, a `locals()` lookup): see rename-refusals.ts. */
  asData?: 'mapping' | 'locals';
}

const GETATTR_FAMILY = new Set(['getattr', 'setattr', 'hasattr', 'delattr']);

/** How an expression reads in a message: `arg.run`, `make().opts`. */
export function exprText(expr: Expr): string {
  switch (expr.k) {
    case 'name':
      return expr.name;
    case 'attr':
      return `${exprText(expr.value)}.${expr.attr}`;
    case 'call':
      return `${exprText(expr.func)}()`;
    case 'subscript':
      return `${exprText(expr.value)}[…]`;
    case 'str':
      return JSON.stringify(expr.value);
    default:
      return '…';
  }
}

/** Whether a function binding carries decorators (which may replace it with another kind of object). */
function decorated(resolver: Resolver, entity: Entity): boolean {
  const fn = resolver.functionOf(entity);
  if (fn) return fn.info.facts.functions.some((f) => f.binding === fn.binding && f.decorators.length > 0);
  return false;
}

/** What tug knows about the value of a receiver: its type is known (or outside the workspace), unknown, or a decorated function. */
export function receiverKnowledge(resolver: Resolver, info: FileInfo, expr: Expr): 'known' | UnsureReason {
  const project = resolver.project;
  if (expr.k === 'const' || expr.k === 'str') return 'known';
  if (expr.k === 'name' && expr.ref !== undefined && 'builtin' in (info.facts.references[expr.ref]?.resolved ?? {})) return 'known';
  if (expr.k === 'call') {
    const callee = project.entityOfExpr(info, expr.func);
    return callee && decorated(resolver, callee) ? 'decorator' : resolver.types.inferClass(info, expr) ? 'known' : 'untyped_receiver';
  }
  if (resolver.types.inferClass(info, expr)) return 'known';
  const entity = expr.k === 'name' || expr.k === 'attr' ? project.entityOfExpr(info, expr) : null;
  if (!entity) return 'untyped_receiver';
  if (entity.kind === 'external' || entity.kind === 'module') return 'known';
  if (resolver.classes.classOfEntity(entity)) return 'known';
  if (resolver.functionOf(entity)) return decorated(resolver, entity) ? 'decorator' : 'known';
  return 'untyped_receiver';
}

/** The function a parameter belongs to, by name: keywords are unsure only on calls of that name. */
function parameterOwner(resolver: Resolver, target: Entity): string | null {
  if (target.kind !== 'local') return null;
  const info = resolver.project.files.get(target.file);
  const param = info?.facts.params.find((p) => p.binding === target.binding);
  return param ? (info!.bindings.get(param.function_binding)?.name ?? null) : null;
}

/** Special methods that build an instance: a call of the instance's own class runs them. */
const CONSTRUCTORS = new Set(['__init__', '__new__']);

/**
 * Whether a call tug did not resolve may still call a function named `owner`: a method call on a receiver of
 * unknown type, or for a constructor, a call of an instance's class (`self.__class__(…)`, `type(self)(…)`, `cls(…)`).
 */
function unknownCallee(resolver: Resolver, info: FileInfo, callee: Expr, owner: string): 'known' | UnsureReason {
  if (callee.k === 'attr' && callee.attr === owner) return receiverKnowledge(resolver, info, callee.value);
  // Any value of unknown type may be an instance whose class's `__call__` this is.
  if (owner === '__call__' && callee.k !== 'attr') return receiverKnowledge(resolver, info, callee);
  if (!CONSTRUCTORS.has(owner)) return 'known';
  const classOfInstance =
    (callee.k === 'attr' && callee.attr === '__class__') ||
    (callee.k === 'name' && callee.name === 'cls') ||
    (callee.k === 'call' && callee.func.k === 'name' && callee.func.name === 'type');
  return classOfInstance ? 'untyped_receiver' : 'known';
}

/**
 * Whether a call with a keyword spelled like a record field may construct or copy that record where tug cannot tell:
 * `obj._replace(…)` or `dataclasses.replace(obj, …)` on a value of unknown type, `cls(…)`, `type(self)(…)`.
 */
function fieldCallKnowledge(resolver: Resolver, info: FileInfo, call: { callee: Expr; args?: Expr[] | undefined }): 'known' | UnsureReason {
  if (call.callee.k === 'attr' && call.callee.attr === '_replace') return receiverKnowledge(resolver, info, call.callee.value);
  const first = call.args?.[0];
  if (first && REPLACERS.has(resolver.records.externalName(info, call.callee) ?? '')) return resolver.types.inferClass(info, first) ? 'known' : 'untyped_receiver';
  return unknownCallee(resolver, info, call.callee, '__init__');
}

/** Every place that may name the target but could not be resolved to it. */
export function findUnsure(resolver: Resolver, target: Entity, name: string, occurrences: readonly Occurrence[], only?: ReadonlySet<string>): UnsureSite[] {
  const out: UnsureSite[] = [];
  const known = new Set(occurrences.map((o) => `${o.file}:${o.span[0]}`));
  const owner = parameterOwner(resolver, target);
  const members = target.kind === 'class-member' || target.kind === 'module-attr';
  const field = resolver.isRecordField(target);
  for (const info of resolver.project.files.values()) {
    if (only && !only.has(info.file)) continue;
    const f = info.facts;
    if (members) {
      for (const [index, attr] of f.attributes.entries()) {
        if (attr.attr !== name || known.has(`${info.file}:${attr.span[0]}`)) continue;
        const resolved = resolver.attributeEntity(info, index);
        // An attribute of a workspace module that binds no such name: it comes from elsewhere (a module __getattr__,
        // an import hook, a proxy such as toolz's tlz), or the code is wrong; either way tug cannot say what it is.
        if (resolved && !resolver.project.unboundAttr(resolved)) continue;
        const why = resolved ? 'unresolved' : receiverKnowledge(resolver, info, attr.receiver);
        if (why !== 'known') out.push({ file: info.file, span: attr.span, text: `${exprText(attr.receiver)}.${name}`, reason: why });
      }
      for (const d of f.dynamic) {
        if (!GETATTR_FAMILY.has(d.kind) || d.name_arg !== name) continue;
        const literal = f.strings.find((s) => s.value === name && s.span[0] >= d.span[0] && s.span[1] <= d.span[1]);
        if (literal) out.push({ file: info.file, span: literal.span, text: `${d.kind}(…, "${name}")`, reason: 'dynamic_getattr' });
      }
    }
    if (field) {
      // attrs' keyword for a private field `_x` is `x`: listed, never edited with the field's own name.
      const keyword = resolver.fieldKeyword(target) ?? name;
      for (const call of f.calls) {
        for (const kw of call.keywords) {
          if (kw.name !== keyword || known.has(`${info.file}:${kw.span[0]}`) || resolver.parameterOf(info, call, keyword) || resolver.fieldOf(info, call, name)) continue;
          const why = fieldCallKnowledge(resolver, info, call);
          const site = { file: info.file, span: kw.span, text: `${exprText(call.callee)}(${keyword}=…)`, reason: why as UnsureReason };
          if (why !== 'known') out.push(keyword === name ? site : { ...site, listedOnly: true });
        }
      }
    }
    if (owner) {
      const wanted = resolver.key(target);
      for (const call of f.calls) {
        const reaches = resolver.key(resolver.parameterOf(info, call, name)) === wanted;
        const why = reaches ? 'known' : resolver.callsUntypedAlias(info, call, owner) ? 'untyped_receiver' : unknownCallee(resolver, info, call.callee, owner);
        if (why !== 'known') {
          for (const kw of call.keywords) {
            if (kw.name !== name || known.has(`${info.file}:${kw.span[0]}`) || resolver.parameterOf(info, call, kw.name)) continue;
            out.push({ file: info.file, span: kw.span, text: `${exprText(call.callee)}(${name}=…)`, reason: why });
          }
        }
        // `f(**mapping)`: the mapping's keys are the keywords, and one may be the old name.
        if (call.splat && !known.has(`${info.file}:${call.splat[0]}`)) {
          const reason = reaches ? 'kwargs' : why;
          if (reason !== 'known') out.push({ file: info.file, span: call.splat, text: `${exprText(call.callee)}(**…)`, reason, listedOnly: true, asData: 'mapping' });
        }
      }
    }
  }
  out.push(...namesReadThroughLocals(resolver, target, name));
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.span[0] - b.span[0]));
}

/**
 * A function that reads its own variables by name (`locals()["stdin"]`): every string in it spelled like
 * the renamed local may be such a lookup, and the name may be data the function hands on (fixtures' FakePopen).
 */
function namesReadThroughLocals(resolver: Resolver, target: Entity, name: string): UnsureSite[] {
  if (target.kind !== 'local') return [];
  const info = resolver.project.files.get(target.file);
  const scope = info?.bindings.get(target.binding)?.scope;
  if (!info || scope === undefined) return [];
  const readsLocals = info.facts.calls.some(
    (c) => c.scope === scope && c.callee.k === 'name' && c.callee.name === 'locals' && isBuiltin(info, c.callee),
  );
  const span = info.scopes.get(scope)?.span;
  if (!readsLocals || !span) return [];
  return info.facts.strings
    .filter((s) => s.value === name && s.span[0] >= span[0] && s.span[1] <= span[1])
    .map((s) => ({ file: info.file, span: s.span, text: `locals()[${JSON.stringify(name)}]`, reason: 'dynamic_getattr' as const, asData: 'locals' as const }));
}

function isBuiltin(info: FileInfo, expr: Expr): boolean {
  return expr.k === 'name' && expr.ref !== undefined && 'builtin' in (info.facts.references[expr.ref]?.resolved ?? {});
}

export function unsureJSON(sites: readonly UnsureSite[], bytesOf: ReadonlyMap<string, Uint8Array>, renamed: boolean): UnsureJSON[] {
  return sites.map((s) => ({ file: s.file, ...positionOf(lineStarts(bytesOf.get(s.file)!), s.span[0]), text: s.text, reason: s.reason, renamed: renamed && !s.listedOnly }));
}

export function unsureEdits(sites: readonly UnsureSite[], oldName: string, newName: string): EditRequest[] {
  return sites.filter((s) => !s.listedOnly).map((s) => ({ file: s.file, span: { start: s.span[0], end: s.span[1] }, old_text: oldName, new_text: newName }));
}

/** A cursor on an attribute or keyword tug cannot resolve: say which receiver is unknown (UnresolvedSymbol), or null. */
export function unresolvedAt(resolver: Resolver, info: FileInfo, offset: number, location: { file: string; line: number; col: number }): TugError | null {
  const where = `${location.file}:${location.line}:${location.col}`;
  const inside = (span: Span) => span[0] <= offset && offset <= span[1];
  const fail = (receiver: Expr, shown: string) =>
    new TugError('UnresolvedSymbol', `\`${shown}\` — the type of \`${exprText(receiver)}\` is unknown`, {
      details: { location: where, expression: shown, receiver: exprText(receiver) },
      location,
    });
  for (const attr of info.facts.attributes) {
    if (inside(attr.span) && receiverKnowledge(resolver, info, attr.receiver) !== 'known') return fail(attr.receiver, `${exprText(attr.receiver)}.${attr.attr}`);
  }
  for (const call of info.facts.calls) {
    for (const kw of call.keywords) {
      if (!inside(kw.span) || call.callee.k !== 'attr') continue;
      if (receiverKnowledge(resolver, info, call.callee.value) !== 'known') return fail(call.callee.value, `${exprText(call.callee)}(${kw.name}=…)`);
    }
  }
  return null;
}
