// A `.pyi` stub beside its module is one symbol table with it: a parameter renamed in one is renamed in the other.
import { entityKey, type Entity, type FileInfo, type Project } from './project.js';

/** The other file of a module's `.py`/`.pyi` pair, when both exist. */
function twinFile(project: Project, file: string): FileInfo | undefined {
  const other = file.endsWith('.pyi') ? file.slice(0, -1) : file.endsWith('.py') ? `${file}i` : null;
  return other ? project.files.get(other) : undefined;
}

/** Dotted path of the function a parameter belongs to (`Counter.add`), and the parameter's name. */
function parameterPath(project: Project, info: FileInfo, binding: number): { owner: string; fn: string; name: string } | null {
  const param = info.facts.params.find((p) => p.binding === binding);
  if (!param) return null;
  const fn = info.bindings.get(param.function_binding);
  return fn ? { owner: project.ownerPath(info, fn.scope), fn: fn.name, name: param.name } : null;
}

/**
 * A stub that declares a name its module only imports (`def has(...)` in `pkg/__init__.pyi`, while `pkg/__init__.py`
 * does `from ._funcs import has`) declares the renamed symbol: the stub's name is a twin of it.
 */
function stubDeclarations(project: Project, entity: Entity, key: (e: Entity) => string | null): Entity[] {
  const wanted = key(entity);
  const out: Entity[] = [];
  for (const info of project.files.values()) {
    if (!info.file.endsWith('.pyi') || !info.globals.has(nameOf(entity))) continue;
    const declared: Entity = { kind: 'module-attr', module: info.module, name: nameOf(entity) };
    if (key(declared) !== wanted && key(project.resolveAttr(info.module, nameOf(entity))) === wanted) out.push(declared);
  }
  return out;
}

const nameOf = (entity: Entity) => (entity.kind === 'module' ? entity.module : entity.name);

/**
 * The same parameter in the stub (or in the module, for a stub's parameter). Module attributes and class members
 * already share one key across the pair (both files are the same module); locals do not.
 */
export function stubTwins(project: Project, entity: Entity, key: (e: Entity) => string | null = entityKey): Entity[] {
  if (entity.kind === 'module-attr') return stubDeclarations(project, entity, key);
  if (entity.kind !== 'local') return [];
  const info = project.files.get(entity.file);
  const twin = info && twinFile(project, info.file);
  const path = info && parameterPath(project, info, entity.binding);
  if (!twin || !path) return [];
  for (const param of twin.facts.params) {
    if (param.name !== path.name) continue;
    const fn = twin.bindings.get(param.function_binding);
    if (!fn || fn.name !== path.fn || project.ownerPath(twin, fn.scope) !== path.owner) continue;
    return [{ kind: 'local', file: twin.file, binding: param.binding, name: param.name }];
  }
  return [];
}
