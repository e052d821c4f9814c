// Warnings about code that may reach the renamed symbol by a string: getattr/eval calls, `__getattr__` hooks, string mentions.
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { Dynamic } from './facts.js';
import { absoluteModule } from './modules.js';
import type { Entity, FileInfo } from './project.js';
import type { Occurrence, Resolver } from './references.js';

const HOOKS = new Set(['__getattr__', '__getattribute__']);

/** Whether a lookup of `name` could reach the `__getattr__` hook `d` defined in `info`: on its module, or on its class. */
function hookReached(resolver: Resolver, info: FileInfo, d: Dynamic, entity: Entity, name: string): boolean {
  const project = resolver.project;
  const binding = info.facts.bindings.find((b) => b.span[0] === d.span[0] && b.name === d.kind);
  const scope = binding ? info.scopes.get(binding.scope) : undefined;
  if (scope?.kind === 'class') {
    // Reached when the class (or a base) defines the renamed member, or when code looks the name up on its instances.
    const own = resolver.key({ kind: 'class-member', module: info.module, owner: project.ownerPath(info, scope.id), name });
    if (own === resolver.key(entity)) return true;
    for (const other of project.files.values()) {
      for (const [index, attr] of other.facts.attributes.entries()) if (attr.attr === name && resolver.key(resolver.attributeEntity(other, index)) === own) return true;
    }
    return false;
  }
  if (scope?.kind !== 'module') return false;
  // The module itself publishes the name (defines it, or re-exports it from a package `__init__` or through `__all__`),
  // or code looks the name up on the module. A module that only imports the name for its own use is not reached.
  const own = info.globals.get(name);
  const reexports = /(^|\/)__init__\.pyi?$/.test(info.file) || (info.facts.all?.entries ?? []).some((e) => e.value === name);
  if (own && (reexports || !info.importOf.has(own.id)) && resolver.key(project.entityOfBinding(info, own)) === resolver.key(entity)) return true;
  if (entity.kind === 'module-attr' && entity.module === info.module) return true;
  for (const other of project.files.values()) {
    for (const attr of other.facts.attributes) {
      if (attr.attr !== name) continue;
      const receiver = project.entityOfExpr(other, attr.receiver);
      if (receiver?.kind === 'module' && receiver.module === info.module) return true;
    }
    for (const fact of other.facts.imports) {
      if (fact.kind !== 'from' || !fact.names.some((n) => n.name === name)) continue;
      if (absoluteModule(other.file, other.module, fact.level, fact.module) === info.module) return true;
    }
  }
  return false;
}

/**
 * getattr/eval and friends may reach the symbol by a string tug cannot see through; say where (seed L11). A module or
 * class `__getattr__` is named only when a lookup of the renamed name could reach it.
 */
export function dynamicWarnings(
  resolver: Resolver,
  entity: Entity,
  name: string,
  occurrences: readonly Occurrence[],
  bytesOf: ReadonlyMap<string, Uint8Array>,
  stringsRenamed: boolean,
  /** `file:offset` of strings --include-unsure renamed (getattr-style names): no warning says they were left alone. */
  renamedStrings: ReadonlySet<string> = new Set(),
): WarningJSON[] {
  const touched = new Set(occurrences.map((o) => o.file));
  const warnings: WarningJSON[] = [];
  for (const info of resolver.project.files.values()) {
    for (const d of info.facts.dynamic) {
      const named = d.name_arg === name;
      if (named && info.facts.strings.some((t) => renamedStrings.has(`${info.file}:${t.span[0]}`) && t.span[0] >= d.span[0] && t.span[1] <= d.span[1])) continue;
      if (HOOKS.has(d.kind)) {
        if (!hookReached(resolver, info, d, entity, name)) continue;
      } else if (!named && !(touched.has(info.file) && d.name_arg === null)) {
        continue;
      }
      // A hook is listed only when a lookup of the name can reach it, so its message names the symbol: a person reading
      // the summary must tell it from the generic eval/getattr notes beside it (issue 34 §5).
      const message = HOOKS.has(d.kind)
        ? `${d.kind} here answers a lookup of "${name}" (a shim that names it by string keeps the old name); review it`
        : named
          ? `${d.kind}(…, "${name}") may refer to the renamed symbol and was not changed`
          : `${d.kind} in this file may reach symbols by name; review it`;
      warnings.push({
        code: 'DynamicReference',
        message,
        location: { file: info.file, line: d.line, col: d.col },
        suggestion: 'Review manually.',
      });
    }
    const inAll = new Set((info.facts.all?.entries ?? []).map((e) => e.span[0]));
    for (const s of info.facts.strings) {
      if (stringsRenamed || s.value !== name || inAll.has(s.span[0]) || renamedStrings.has(`${info.file}:${s.span[0]}`)) continue;
      const { line, col } = positionOf(lineStarts(bytesOf.get(info.file)!), s.span[0]);
      warnings.push({ code: 'StringMention', message: `the string "${name}" was left unchanged`, location: { file: info.file, line, col } });
    }
  }
  return warnings;
}
