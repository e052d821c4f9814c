// --keep-alias: the old public name stays as a deprecated alias of the new one, in every module or class that binds it.
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { Entity, FileInfo } from './project.js';
import type { Occurrence, Resolver } from './references.js';

export interface AliasPlan {
  edits: EditRequest[];
  warnings: WarningJSON[];
}

const comment = (oldName: string, newName: string) => `deprecated alias: ${oldName} was renamed to ${newName} (tug rename --keep-alias)`;

/**
 * Whether the module publishes the renamed name here: it defines it at module scope, or re-exports it (a plain import in
 * a package `__init__`, or in a module whose `__all__` lists it). A module that merely uses the name gets no alias.
 */
function publishes(info: FileInfo, o: Occurrence, oldName: string): boolean {
  if (o.kind !== 'definition' && o.kind !== 'import') return false;
  const moduleScope = info.facts.scopes.find((s) => s.kind === 'module')?.id;
  if (o.kind === 'definition') return info.facts.bindings.some((b) => b.span[0] === o.span[0] && b.scope === moduleScope);
  const reexports = /(^|\/)__init__\.pyi?$/.test(info.file) || (info.facts.all?.entries ?? []).some((e) => e.value === oldName);
  return reexports && info.facts.imports.some((fact) => fact.kind === 'from' && fact.scope === moduleScope && fact.names.some((n) => n.name_span[0] === o.span[0] && (n.asname === null || n.asname === n.name)));
}

/**
 * Edits that keep `oldName` working: `old = new` at the end of every module that binds the name (the defining module,
 * its stub, each re-exporting package), `old` added beside `new` in their `__all__`, and `old = new` after each
 * method definition in a class. Parameters, locals and modules have no alias form: InvalidArgument.
 */
export function keepAlias(resolver: Resolver, entity: Entity, occurrences: readonly Occurrence[], edits: EditRequest[], bytesOf: ReadonlyMap<string, Uint8Array>, oldName: string, newName: string): AliasPlan {
  if (entity.kind !== 'module-attr' && entity.kind !== 'class-member') {
    throw new TugError('InvalidArgument', `keep_alias applies to module-level names and methods; ${oldName} is a ${entity.kind === 'module' ? 'module' : 'local name or parameter'}`, {
      details: { argument: 'keep_alias', reason: 'no alias form for this kind of symbol' },
    });
  }
  const out: AliasPlan = { edits: [], warnings: [] };
  const project = resolver.project;
  const located = (file: string, offset: number) => ({ file, ...positionOf(lineStarts(bytesOf.get(file)!), offset) });
  const files = [...new Set(occurrences.map((o) => o.file))].sort();
  for (const file of files) {
    const info = project.files.get(file);
    const bytes = bytesOf.get(file);
    if (!info || !bytes) continue;
    const mine = occurrences.filter((o) => o.file === file);
    if (entity.kind === 'module-attr') {
      if (!mine.some((o) => publishes(info, o, oldName))) continue;
      const end = bytes.length;
      const newline = end > 0 && bytes[end - 1] !== 10 ? '\n' : '';
      out.edits.push({ file, span: { start: end, end }, old_text: '', new_text: `${newline}\n# ${comment(oldName, newName)}\n${oldName} = ${newName}\n` });
      out.warnings.push({ code: 'AliasKept', message: `${oldName} is kept as a deprecated alias of ${newName}`, location: located(file, end) });
      for (const o of mine.filter((m) => m.kind === 'all')) {
        const quote = String.fromCharCode(bytes[o.span[0] - 1]!);
        const edit = edits.find((e) => e.file === file && e.span?.start === o.span[0]);
        if (edit && (quote === '"' || quote === "'")) edit.new_text = `${newName}${quote}, ${quote}${oldName}`;
      }
      continue;
    }
    for (const o of mine.filter((m) => m.kind === 'definition')) {
      const fn = info.facts.functions.find((f) => info.bindings.get(f.binding)?.span[0] === o.span[0]);
      const scope = fn && info.scopes.get(fn.scope);
      const classScope = fn && info.scopes.get(info.bindings.get(fn.binding)!.scope);
      if (!scope || classScope?.kind !== 'class') continue;
      const starts = lineStarts(bytes);
      const defLine = positionOf(starts, o.span[0]).line;
      const lineText = Buffer.from(bytes.subarray(starts[defLine - 1]!, o.span[0])).toString('utf8');
      const indent = /^[ \t]*/.exec(lineText)![0];
      out.edits.push({ file, span: { start: scope.span[1], end: scope.span[1] }, old_text: '', new_text: `\n\n${indent}${oldName} = ${newName}  # ${comment(oldName, newName)}` });
      out.warnings.push({ code: 'AliasKept', message: `${oldName} is kept as a deprecated alias of ${newName} in class ${project.ownerPath(info, classScope!.id)}`, location: located(file, scope.span[1]) });
    }
  }
  if (out.edits.length === 0) {
    throw new TugError('InvalidArgument', `keep_alias: ${oldName} has no definition tug can alias (an attribute set on instances, or a name bound inside a function)`, {
      details: { argument: 'keep_alias', reason: 'no definition to alias' },
    });
  }
  return out;
}
