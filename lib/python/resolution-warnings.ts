// Warnings about how a rename's occurrences were found: keys of `**{...}` dicts, decorators that replace what they
// wrap, and bindings elsewhere that keep the old name for a value made from the renamed symbol.
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { Binding, Expr } from './facts.js';
import { lastName } from './annotations.js';
import type { Entity, FileInfo } from './project.js';
import type { Occurrence, Resolver } from './references.js';

/** Decorators from outside the workspace known to hand back the function or class (or an equivalent). */
const KEEPING = new Set([
  'property', 'cached_property', 'setter', 'getter', 'deleter', 'staticmethod', 'classmethod', 'abstractmethod', 'overload',
  'override', 'final', 'dataclass', 'wraps', 'lru_cache', 'cache', 'total_ordering', 'contextmanager', 'asynccontextmanager',
  'fixture', 'unique', 'runtime_checkable', 'no_type_check', 'singledispatch', 'singledispatchmethod', 'dataclass_transform',
]);

export function resolutionWarnings(resolver: Resolver, entity: Entity, occurrences: Occurrence[], bytesOf: ReadonlyMap<string, Uint8Array>): WarningJSON[] {
  const warnings: WarningJSON[] = [];
  const locate = (file: string, offset: number) => ({ file, ...positionOf(lineStarts(bytesOf.get(file)!), offset) });
  const keywordAt = new Set(occurrences.filter((o) => o.kind === 'keyword').map((o) => `${o.file}:${o.span[0]}`));
  for (const file of new Set(occurrences.map((o) => o.file))) {
    const info = resolver.project.files.get(file)!;
    for (const call of info.facts.calls) {
      for (const kw of call.keywords) {
        if (!kw.in_dict || !keywordAt.has(`${file}:${kw.span[0]}`)) continue;
        warnings.push({
          code: 'DictKeywordRenamed',
          message: `the key "${kw.name}" of a **{...} dict passed to a call was renamed with the parameter`,
          location: locate(file, kw.span[0]),
          suggestion: 'Review it: keys of dicts built elsewhere and passed with ** are not found.',
        });
      }
    }
  }
  for (const o of occurrences) {
    if (o.kind !== 'definition') continue;
    const info = resolver.project.files.get(o.file)!;
    const binding = info.facts.bindings.find((b) => b.span[0] === o.span[0] && (b.kind === 'function' || b.kind === 'class'));
    const fn = binding && info.facts.functions.find((f) => f.binding === binding.id);
    for (const decorator of fn?.decorators ?? []) {
      const replacing = replacingDecorator(resolver, info, decorator);
      if (!replacing) continue;
      warnings.push({
        code: 'ReplacingDecorator',
        message: `${binding!.name} is decorated by ${replacing.name}, which ${replacing.why}; uses of what it returns are found only where its return type is annotated`,
        location: locate(o.file, o.span[0]),
        suggestion: `Review uses of ${binding!.name} that go through what ${replacing.name} returns.`,
      });
    }
  }
  return warnings;
}

/** A decorator that may hand back something other than what it wraps, with the reason; null when it keeps it. */
function replacingDecorator(resolver: Resolver, info: FileInfo, decorator: Expr): { name: string; why: string } | null {
  const target = decorator.k === 'call' ? decorator.func : decorator;
  const name = lastName(target);
  if (!name) return null;
  const entity = resolver.project.follow(resolver.project.entityOfExpr(info, target));
  if (!entity || entity.kind === 'external') return KEEPING.has(name) ? null : { name, why: 'is defined outside the workspace and may replace it' };
  if (resolver.types.classObject(info, target)) return null; // an instance of a workspace class: its methods resolve
  const found = resolver.types.functionOf(entity);
  if (!found) return KEEPING.has(name) ? null : { name, why: 'may replace it' };
  const gives = found.fn.gives;
  if (decorator.k === 'call' ? gives === 'factory' : gives === 'param' || gives === 'wrapper') return null;
  return { name, why: found.fn.returns ? 'returns another object' : 'may return another object' };
}

/**
 * `cons = toolz.curry(toolz.cons)` in another namespace (toolz.curried mirrors toolz's API): a module-level binding
 * under the old name whose value uses the renamed symbol on the same line. The rename leaves it, as it must (it is
 * another symbol), and says so: a namespace that mirrors an API by name should usually follow.
 */
export function mirrorWarnings(resolver: Resolver, oldName: string, occurrences: readonly Occurrence[], bytesOf: ReadonlyMap<string, Uint8Array>): WarningJSON[] {
  const renamed = new Set(occurrences.map((o) => `${o.file}:${o.span[0]}`));
  const seen = new Set<string>();
  const warnings: WarningJSON[] = [];
  // Per file, the module-level variables named like the symbol (almost always none): only then is a line computed.
  const candidates = new Map<string, Binding[]>();
  const candidatesIn = (file: string, info: FileInfo) => {
    if (!candidates.has(file)) {
      const found = info.facts.bindings.filter((b) => b.name === oldName && b.kind === 'variable' && info.facts.scopes[b.scope]?.kind === 'module' && !renamed.has(`${file}:${b.span[0]}`));
      candidates.set(file, found);
    }
    return candidates.get(file)!;
  };
  for (const o of occurrences) {
    if (o.kind === 'definition' || o.kind === 'import') continue;
    const info = resolver.project.files.get(o.file);
    const bindings = info ? candidatesIn(o.file, info) : [];
    if (bindings.length === 0) continue;
    const { line } = positionOf(lineStarts(bytesOf.get(o.file)!), o.span[0]);
    const mirror = bindings.find((b) => b.line === line && b.span[0] < o.span[0]);
    if (!mirror || seen.has(`${o.file}:${mirror.span[0]}`)) continue;
    seen.add(`${o.file}:${mirror.span[0]}`);
    warnings.push({
      code: 'MirrorKeepsOldName',
      message: `${o.file} binds ${oldName} to a value made from the renamed symbol; that name stays ${oldName}`,
      location: { file: o.file, line: mirror.line, col: mirror.col },
      suggestion: 'If this module mirrors the API by name, rename it too.',
    });
  }
  return warnings;
}
