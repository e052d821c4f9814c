// A member that overrides one of a standard-library base class is used by that library by its name: codecs calls an
// IncrementalEncoder's `encode`, threading a Thread's `run`, unittest a TestCase's `setUp`. No reference in the project
// shows that use, so renaming the member away (or another member onto such a name) changes what the code does while
// every visible reference still matches. The sweep over real projects found it (webencodings' x_user_defined
// `IncrementalEncoder.encode`, renamed: the codec raised NotImplementedError), so tug refuses, like for special names.
import { TugError } from '../core/errors.js';
import type { ClassModel, ClassRef } from './classes.js';
import type { Expr } from './facts.js';
import type { Entity, FileInfo, Project } from './project.js';
import { runIsolated } from './isolated.js';

/**
 * The dotted names (`codecs.IncrementalEncoder`, `builtins.dict`) of the classes outside the workspace that `cls` and
 * its workspace bases inherit from; `object` left out (its members are special names, refused already).
 */
export function libraryBases(project: Project, classes: ClassModel, cls: ClassRef): string[] {
  const out = new Set<string>();
  for (const ancestor of classes.ancestry(cls)) {
    const info = project.byModule.get(ancestor.module);
    const fact = info?.facts.classes.find((c) => project.ownerPath(info, c.scope) === ancestor.owner);
    for (const base of fact?.bases ?? []) {
      const name = externalName(project, info!, base);
      if (name && name !== 'builtins.object') out.add(name);
    }
  }
  return [...out].sort();
}

/** The dotted name of an expression that names something outside the workspace, else null. */
function externalName(project: Project, info: FileInfo, expr: Expr): string | null {
  if (expr.k === 'name') {
    const ref = expr.ref === undefined ? undefined : info.facts.references[expr.ref];
    if (ref && 'builtin' in ref.resolved) return `builtins.${ref.resolved.builtin}`;
    const entity = project.follow(project.entityOfExpr(info, expr));
    if (entity) return entity.kind === 'external' ? entity.name : null;
    // A name nothing in the module binds (`class Table(dict)`) is a builtin's, or nothing: the interpreter tells.
    return info.globals.has(expr.name) ? null : `builtins.${expr.name}`;
  }
  if (expr.k === 'attr') {
    const base = externalName(project, info, expr.value);
    return base ? `${base}.${expr.attr}` : null;
  }
  return null;
}

/**
 * Asks the interpreter which of `names` the standard-library classes `bases` define (anywhere in their MRO but
 * `object`); with `param`, whether their method `names[0]` takes a parameter of that name (or hides its signature).
 * Only standard-library modules are imported (never the project's, nor a third party's, whose import runs their
 * code), and not the few that act when imported (`antigravity` opens a browser).
 */
const SCRIPT = `
import contextlib, importlib, inspect, io, json, sys
bases, names, param = json.loads(sys.argv[1])
SKIP = {"antigravity", "this", "idlelib", "turtledemo", "__main__"}
def takes(method):
    try:
        return param in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return True
found = []
for dotted in bases:
    parts = dotted.split(".")
    if parts[0] in SKIP or not (parts[0] == "builtins" or parts[0] in sys.stdlib_module_names):
        continue
    cls = None
    for cut in range(len(parts) - 1, 0, -1):
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                value = importlib.import_module(".".join(parts[:cut]))
            for attr in parts[cut:]:
                value = getattr(value, attr)
            cls = value
            break
        except Exception:
            continue
    if not isinstance(cls, type):
        continue
    for name in names:
        if any(name in vars(k) for k in cls.__mro__ if k is not object) and (param is None or takes(getattr(cls, name))):
            found.append([dotted, name])
print(json.dumps(found))
`;

type At = { file: string; line: number; col: number };

/** Runs SCRIPT; what it found, or nothing when the interpreter could not answer (nothing is known then, as before). */
async function libraryDefines(python: () => Promise<string>, bases: string[], names: string[], param: string | null): Promise<Array<[string, string]>> {
  const run = await runIsolated(await python(), SCRIPT, [JSON.stringify([bases, names, param])], { timeoutMs: 30_000 });
  try {
    return JSON.parse(run.stdout.trim().split('\n').pop() ?? '[]') as Array<[string, string]>;
  } catch {
    return [];
  }
}

function refusal(message: string, details: Record<string, string>, at: At): TugError {
  return new TugError('UnsafeRefactor', `${message}, while every reference tug can see still matches`, {
    details: { reason: 'library override', ...details, line: at.line, col: at.col },
    location: at,
  });
}

/**
 * Refuses renaming a class member that a standard-library base class defines (the library calls it by name), renaming
 * a member to a name such a base defines (it would start overriding it), and renaming a parameter of a method that
 * overrides such a base's method taking a parameter of that name (the library may pass it by keyword).
 */
export async function refuseLibraryOverride(project: Project, classes: ClassModel, entity: Entity, names: { oldName: string; newName: string; at: At }, python: () => Promise<string>): Promise<void> {
  const { oldName, newName, at } = names;
  if (oldName === newName) return;
  if (entity.kind === 'local') return refuseParameter(project, classes, entity, names, python);
  if (entity.kind !== 'class-member') return;
  const bases = libraryBases(project, classes, { module: entity.module, owner: entity.owner });
  if (bases.length === 0) return;
  const found = await libraryDefines(python, bases, [oldName, newName], null);
  const hit = found.find(([, name]) => name === oldName) ?? found.find(([, name]) => name === newName);
  if (!hit) return;
  const [dotted, name] = hit;
  const base = dotted.replace(/^builtins\./, '');
  const member = `${entity.owner}.${oldName}`;
  const why =
    name === oldName
      ? `${member} overrides ${base}.${name}, which Python's library calls by that name; renamed, it would call its own ${name} instead`
      : `${base} defines ${name}, which Python's library calls by that name; renaming ${member} to ${name} would override it`;
  throw refusal(why, { name, base: dotted, class: entity.owner, module: entity.module }, at);
}

async function refuseParameter(project: Project, classes: ClassModel, entity: Extract<Entity, { kind: 'local' }>, names: { oldName: string; at: At }, python: () => Promise<string>): Promise<void> {
  const info = project.files.get(entity.file);
  const param = info?.facts.params.find((p) => p.binding === entity.binding);
  if (!info || !param || param.index === 0 || param.kind === 'posonly' || param.kind === 'vararg' || param.kind === 'kwarg') return;
  const fn = info.scopes.get(param.scope);
  const cls = fn?.parent === null || fn?.parent === undefined ? undefined : info.scopes.get(fn.parent);
  // A constructor's parameters are the subclass's own: the library builds instances of its own classes, not of this one.
  if (!fn?.name || cls?.kind !== 'class' || fn.name === '__init__' || fn.name === '__new__') return;
  const owner = project.ownerPath(info, cls.id);
  const bases = libraryBases(project, classes, { module: info.module, owner });
  if (bases.length === 0) return;
  const [hit] = await libraryDefines(python, bases, [fn.name], names.oldName);
  if (!hit) return;
  const base = hit[0].replace(/^builtins\./, '');
  const why = `${names.oldName} is a parameter of ${owner}.${fn.name}, which overrides ${base}.${fn.name}: callers through the library's interface may pass ${names.oldName} by keyword`;
  throw refusal(why, { name: names.oldName, base: hit[0], class: owner, module: info.module }, names.at);
}

/** The standard-library or builtin base class (dotted) that defines the member `entity` overrides, or null. */
export async function libraryDefiner(project: Project, classes: ClassModel, entity: Entity, python: () => Promise<string>): Promise<string | null> {
  if (entity.kind !== 'class-member') return null;
  const bases = libraryBases(project, classes, { module: entity.module, owner: entity.owner });
  if (bases.length === 0) return null;
  const [hit] = await libraryDefines(python, bases, [entity.name], null);
  return hit ? hit[0] : null;
}
