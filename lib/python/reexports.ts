// Imports that other modules take from the module that imports them: organize-imports must keep them although that
// module never reads them itself (simplejson's compat.reload_module, imported by its tests, was removed; issue 28 §3).
import type { Facts } from './facts.js';
import { absoluteModule, type ModuleMap } from './modules.js';

/** The module-level names a module's import statements bind (`from importlib import reload as reload_module`). */
export function importedNames(facts: Facts): Set<string> {
  const moduleScope = facts.scopes.find((s) => s.kind === 'module')?.id ?? 0;
  const out = new Set<string>();
  for (const fact of facts.imports) {
    if (fact.scope !== moduleScope || fact.star) continue;
    for (const n of fact.names) out.add(n.asname ?? n.name.split('.')[0]!);
  }
  return out;
}

/**
 * What the other modules take from `module`: names of `from module import name`, everything public for a star import,
 * and for a module imported whole (`import pkg.mod`, `from pkg import mod`) every attribute name that file reads.
 */
export function namesTakenFrom(module: string, modules: ModuleMap, users: ReadonlyMap<string, Facts>): { names: Set<string>; star: boolean } {
  const names = new Set<string>();
  let star = false;
  for (const [file, facts] of users) {
    const own = modules.byFile.get(file);
    if (own === undefined || own === module) continue;
    let whole = false;
    for (const fact of facts.imports) {
      if (fact.kind === 'import') {
        if (fact.names.some((n) => n.name === module || n.name.startsWith(`${module}.`))) whole = true;
        continue;
      }
      const from = absoluteModule(file, own, fact.level, fact.module);
      if (from === module) {
        if (fact.star) star = true;
        for (const n of fact.names) names.add(n.name);
      } else if (from !== null && fact.names.some((n) => `${from}.${n.name}` === module)) whole = true;
    }
    if (whole) for (const a of facts.attributes) names.add(a.attr);
  }
  return { names, star };
}

/** Whether organizing `facts` (module `module`) could remove an import that another module takes from it. */
export function reexports(facts: Facts, module: string, modules: ModuleMap, users: ReadonlyMap<string, Facts>): boolean {
  const bound = importedNames(facts);
  if (bound.size === 0) return false;
  const taken = namesTakenFrom(module, modules, users);
  return [...bound].some((name) => taken.names.has(name) || (taken.star && !name.startsWith('_')));
}
