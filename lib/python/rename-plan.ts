// Python rename, start to finish on a snapshot: facts for every module, the symbol under the cursor, its occurrences, the edits.
import { TugError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import type { EditRequest, FileMove } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, offsetOf, positionOf } from '../core/text.js';
import type { Repo } from '../git/repo.js';
import { selects, type FileSelection } from '../core/file-selection.js';
import { refuseAmbiguousPosition } from './ambiguous-position.js';
import { mirrorWarnings, resolutionWarnings } from './resolution-warnings.js';
import { findConflicts } from './conflicts.js';
import { pythonIdentifier } from './identifiers.js';
import { entityKey, type Entity, type Project } from './project.js';
import { nameOf, requireRenamable, type Occurrence } from './references.js';
import { withPythonProject, type LoadedProject } from './load-project.js';
import { mentions, unparsableError } from './parse-errors.js';
import { filesByModule, filesMentioning, withPackages } from './candidates.js';
import { textualEdits } from './textual-edits.js';
import { dottedPathEdits } from './dotted-strings.js';
import { mark } from '../core/timing.js';
import { Recent } from '../core/memory.js';
import { completePlan } from './complete-plan.js';
import type { CorePlan, ReferenceJSON, RenamePlan, RenameTarget, SymbolJSON } from './plan-types.js';
import { dynamicWarnings } from './dynamic-warnings.js';
import { stubTwins } from './stubs.js';
import { keepAlias } from './keep-alias.js';
import { findUnsure, unresolvedAt, unsureEdits, unsureJSON } from './unsure.js';
import { refuseNameAsData, refuseReadBeforeBound, refuseReadThroughPatchedModule, refuseUncoveredImport } from './rename-refusals.js';

type PlanOptions = {
  renameStrings?: boolean | undefined;
  renameComments?: boolean | undefined;
  includeUnsure?: boolean | undefined;
  keepAlias?: boolean | undefined;
  /** include/exclude globs (relative to the workspace): files left out are not analysed. */
  selection?: FileSelection | undefined;
  /** safety_mode normal/aggressive: an ambiguous position takes the name before it, with a warning. */
  proceedOnAmbiguity?: boolean | undefined;
};

type PlanSession = { dir: string; paths: { facts: string; workers: string } };
type PythonPlanOptions = PlanOptions & { python?: string | undefined; check?: boolean | undefined };

export async function planPythonRename(
  repo: Repo,
  session: PlanSession,
  tree: string,
  target: RenameTarget,
  newName: string,
  options: PythonPlanOptions,
): Promise<RenamePlan> {
  newName = pythonIdentifier(newName); // `ｂ` is the name b to Python, so it is b here too
  if (options.check) return planUncached(repo, session, tree, target, newName, options);
  // An analysis is a function of the tree and the question: asked again on the same tree (a warm daemon, MCP server or
  // library call), the answer is the last one's, with nothing parsed this time.
  const key = [repo.commonDir, session.paths.facts, tree, target.file, target.line, target.col, newName, JSON.stringify(options)].join('\0');
  const known = recentPlans.get(key);
  if (known) {
    mark('python: plan reused');
    return { ...structuredClone(await known), filesParsed: 0 };
  }
  const planning = planUncached(repo, session, tree, target, newName, options);
  recentPlans.set(key, planning);
  planning.catch(() => recentPlans.drop(key, planning));
  // A copy: callers add to a plan's lists, and the kept one must stay as it was.
  return structuredClone(await planning);
}

/** Analyses lately answered (a few: one question is usually asked again several times, and an edit makes a new tree). */
const recentPlans = new Recent<Promise<RenamePlan>>(8);

function planUncached(
  repo: Repo,
  session: PlanSession,
  tree: string,
  target: RenameTarget,
  newName: string,
  options: PythonPlanOptions,
): Promise<RenamePlan> {
  // The plan is worked out on the files the rename can touch, again with more files if it looked up others; doctests and
  // the completeness check need the worker again, so they come after the (synchronous) plan, on the same files.
  return withPythonProject(
    repo,
    session,
    tree,
    options.python,
    { at: target, newName, selection: options.selection },
    (loaded) => planOn(loaded, target, newName, options),
    (loaded, core) => completePlan({ repo, session, tree, python: options.python, check: options.check, keepAlias: options.keepAlias }, loaded, core, newName),
  );
}

/** The plan on a loaded project: the symbol, its occurrences and their edits, unsure places, aliases, warnings. */
function planOn(loaded: LoadedProject, target: RenameTarget, newName: string, options: PlanOptions): CorePlan {
  const { project, resolver, bytesOf, allPaths, parsed } = loaded;
  if (!bytesOf.has(target.file)) {
    if (loaded.skipped.has(target.file)) throw new TugError('UnsupportedFile', `${target.file} is not UTF-8 text`, { details: { path: target.file, reason: loaded.skipped.get(target.file) } });
    if (options.selection && allPaths.has(target.file) && !selects(options.selection, target.file)) {
      throw new TugError('InvalidArgument', `${target.file} is left out by the include/exclude globs, so tug does not analyse it`, {
        details: { argument: 'at', reason: 'file not selected', include: options.selection.include, exclude: options.selection.exclude },
      });
    }
    throw new TugError('FileNotFound', `${target.file} is not a Python file in the workspace`, { details: { path: target.file } });
  }
  const entries = [...bytesOf.keys()].map((p) => ({ path: p }));

  const info = project.files.get(target.file);
  const bytes = bytesOf.get(target.file)!;
  const starts = lineStarts(bytes);
  const offset = offsetOf(bytes, starts, target.line, target.col);
  const where = `${target.file}:${target.line}:${target.col}`;
  if (offset === null) {
    throw new TugError('InvalidPosition', `${where} is outside the file`, { details: { location: where, file_lines: starts.length }, location: target });
  }
  const broken = loaded.unparsable.get(target.file);
  if (broken) throw unparsableError([broken], `${target.file} does not parse, so tug cannot resolve names in it`);
  if (!info) throw new TugError('SymbolNotFound', `${target.file} is not importable as a module, so tug cannot resolve names in it`, { details: { location: where } });
  const ambiguous = refuseAmbiguousPosition(resolver, info, bytes, offset, target, options.proceedOnAmbiguity);
  const found = resolver.entityAt(info, ambiguous?.offset ?? offset);
  if (!found) {
    const unresolved = unresolvedAt(resolver, info, offset, { file: target.file, line: target.line, col: target.col });
    if (unresolved) throw unresolved;
  }
  const entity = requireRenamable(found, where);
  const oldName = nameOf(entity);
  refuseSpecialName(entity, oldName, newName, target);
  const blocking = [...loaded.unparsable.values()].filter((u) => mentions(bytesOf.get(u.path), oldName));
  if (blocking.length > 0) throw unparsableError(blocking, `${blocking.map((u) => `${u.path}:${u.line ?? '?'}`).join(', ')} do(es) not parse and mention ${oldName}; tug cannot tell whether they use the symbol`);
  const warnings = loaded.warnings.filter(readFor(loaded, target.file, [oldName, newName]));
  if (ambiguous) warnings.push(ambiguous.warning);
  const twins = stubTwins(project, entity, (e) => resolver.key(e));
  const occurrences = mergeOccurrences([entity, ...twins].map((e) => resolver.occurrences(e)));
  mark('python: occurrences found');
  const conflicts = findConflicts(resolver, entity, occurrences, newName);
  if (newName !== oldName && conflicts.length > 0) {
    const first = conflicts[0]!;
    const more = conflicts.length > 1 ? ` and ${conflicts.length - 1} more place(s)` : '';
    throw new TugError('NameConflict', `renaming ${oldName} to ${newName} would change what names refer to: ${newName} ${CLASH[first.reason]} at ${first.file}:${first.line}:${first.col}${more}`, {
      details: { conflicts },
      location: { file: conflicts[0]!.file, line: conflicts[0]!.line, col: conflicts[0]!.col },
    });
  }
  const position = (o: Occurrence) => {
    const b = bytesOf.get(o.file)!;
    const { line, col } = positionOf(lineStarts(b), o.span[0]);
    return { file: o.file, line, col, byte_start: o.span[0], byte_end: o.span[1] };
  };
  const references = occurrences.map((o) => ({ location: position(o), kind: referenceKind(o) }));
  const definition = occurrences.find((o) => o.kind === 'definition') ?? occurrences[0];
  if (!definition) throw new TugError('SymbolNotFound', `no occurrences of the symbol at ${where}`, { details: { location: where } });
  const symbol: SymbolJSON = { id: `sym_${sha256(entityKey(resolver.normalize(entity))).slice(0, 12)}`, name: oldName, kind: symbolKind(project, entity), location: position(definition) };
  const edits: EditRequest[] = occurrences.map((o) => ({ file: o.file, span: { start: o.span[0], end: o.span[1] }, old_text: o.keyword ?? oldName, new_text: o.keyword === undefined ? newName : attrsKeyword(newName, where) }));
  const moves = entity.kind === 'module' ? moduleMoves(project, entity.module, newName, entries.map((e) => e.path), allPaths) : [];
  const unsure = findUnsure(resolver, entity, oldName, occurrences);
  refuseNameAsData(unsure, oldName, bytesOf, Boolean(options.includeUnsure));
  refuseReadThroughPatchedModule(project, entity, occurrences, unsure, bytesOf);
  refuseUncoveredImport(project, entity, occurrences, oldName);
  refuseReadBeforeBound(project, entity, oldName);
  if (options.includeUnsure && unsure.length > 0) {
    edits.push(...unsureEdits(unsure, oldName, newName));
    warnings.push({ code: 'UnsureRenamed', message: `${unsure.length} occurrence(s) tug could not prove were renamed too (--include-unsure); see unsure`, location: unsureJSON(unsure.slice(0, 1), bytesOf, true)[0]! });
  }
  if (options.keepAlias) {
    const alias = keepAlias(resolver, entity, occurrences, edits, bytesOf, oldName, newName);
    edits.push(...alias.edits);
    warnings.push(...alias.warnings);
  }
  const touched = new Set(occurrences.map((o) => o.file));
  warnings.push(...resolutionWarnings(resolver, entity, occurrences, bytesOf));
  warnings.push(...mirrorWarnings(resolver, oldName, occurrences, bytesOf));
  const renamedStrings = new Set(options.includeUnsure ? unsure.filter((u) => u.reason === 'dynamic_getattr').map((u) => `${u.file}:${u.span[0]}`) : []);
  warnings.push(...dynamicWarnings(resolver, entity, oldName, occurrences, bytesOf, Boolean(options.renameStrings), renamedStrings));
  // A dotted path that resolves to the symbol is a reference too; spans the rename already edits (a string
  // annotation) stay as they are.
  const edited = new Set(edits.map((e) => `${e.file}:${e.span?.start}`));
  const dotted = dottedPathEdits(project, resolver, [entity, ...twins], oldName, newName, bytesOf);
  dotted.edits.forEach((e, i) => {
    if (edited.has(`${e.file}:${e.span?.start}`)) return;
    edits.push(e);
    warnings.push(dotted.warnings[i]!);
  });
  const textual = textualEdits(project, oldName, newName, touched, bytesOf, options);
  edits.push(...textual.edits);
  warnings.push(...textual.warnings);
  return { moves, symbol, references, edits, warnings, oldName, filesParsed: parsed, unsure: unsureJSON(unsure, bytesOf, Boolean(options.includeUnsure)), entities: [entity, ...twins] };
}

/**
 * Which warnings a rename reports: an unparsable file is skipped with a warning when the rename reads it on its own
 * (it mentions either name, or is a package of such a file); others are read only when something loaded every file
 * before, so they are left out and the answer does not depend on it.
 */
function readFor(loaded: LoadedProject, target: string, names: string[]): (w: WarningJSON) => boolean {
  if (loaded.unparsable.size === 0) return () => true;
  const { modules } = loaded.project;
  const read = withPackages([target, ...filesMentioning(loaded.bytesOf, names)], modules, filesByModule(modules));
  return (w) => w.code !== 'FileSkipped' || !loaded.unparsable.has(w.location?.file ?? '') || read.has(w.location!.file);
}

/** A module file moves to its new name; a package moves as a directory, every file in it. */
function moduleMoves(project: Project, module: string, newName: string, pythonFiles: string[], allPaths: Set<string>): FileMove[] {
  const file = project.modules.byName.get(module);
  if (!file) return [];
  const isPackage = /(^|\/)__init__\.pyi?$/.test(file);
  const from = isPackage ? file.slice(0, file.lastIndexOf('/')) : file;
  const parent = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  const to = `${parent}${newName}${isPackage ? '' : from.slice(from.lastIndexOf('.'))}`;
  const taken = isPackage ? [...allPaths].some((p) => p === to || p.startsWith(`${to}/`)) : allPaths.has(to) || allPaths.has(`${parent}${newName}/__init__.py`);
  if (taken) {
    throw new TugError('NameConflict', `renaming module ${module} would move it onto ${to}, which exists`, {
      details: { conflicts: [{ file: to, line: 1, col: 1, reason: 'already_defined', name: newName }] },
    });
  }
  if (!isPackage) return [{ from, to }];
  return [...allPaths].filter((p) => p.startsWith(`${from}/`)).sort().map((p) => ({ from: p, to: `${to}${p.slice(from.length)}` }));
}

/** `__eq__`, `__init__`, `__all__`: names Python (or a tool) looks up by spelling, so no reference shows its use. */
const SPECIAL = /^__\w+__$/;

/**
 * A class's or module's special names are used by Python itself: `==` calls `__eq__`, `A()` calls `__init__`, a
 * star import reads `__all__`. Renaming one away (or another name to one) changes what the code does while every
 * visible reference still matches, so tug refuses instead of listing nothing.
 */
function refuseSpecialName(entity: Entity, oldName: string, newName: string, at: RenameTarget): void {
  if (entity.kind === 'local' || entity.kind === 'module') return;
  const special = SPECIAL.test(oldName) ? oldName : SPECIAL.test(newName) ? newName : null;
  if (!special) return;
  throw new TugError('UnsafeRefactor', `${special} is a special name: Python calls or reads it by that name (for \`==\`, \`str()\`, construction, star imports…), so renaming ${special === oldName ? 'it away' : 'to it'} would change what the code does`, {
    details: { reason: 'special name', name: special, line: at.line, col: at.col },
    location: { file: at.file, line: at.line, col: at.col },
  });
}

function referenceKind(o: Occurrence): ReferenceJSON['kind'] {
  if (o.kind === 'keyword' || o.kind === 'all') return 'reference';
  return o.kind;
}

function symbolKind(project: Project, entity: Entity): string {
  if (entity.kind === 'module') return 'module';
  if (entity.kind === 'local') {
    const info = project.files.get(entity.file);
    return info?.facts.params.some((p) => p.binding === entity.binding) ? 'parameter' : 'variable';
  }
  if (entity.kind === 'external') return 'variable';
  const info = project.byModule.get(entity.module);
  const owner = entity.kind === 'class-member' ? entity.owner : '';
  const binding = info?.facts.bindings.find((b) => b.name === entity.name && project.ownerPath(info, b.scope) === owner);
  if (binding?.kind === 'class') return 'class';
  if (binding?.kind === 'function') return entity.kind === 'class-member' ? 'method' : 'function';
  return 'variable';
}

/** Occurrences of a symbol and its stub twins, in file and offset order, each place once. */
function mergeOccurrences(lists: Occurrence[][]): Occurrence[] {
  const seen = new Set<string>();
  return lists
    .flat()
    .filter((o) => (seen.has(`${o.file}:${o.span[0]}`) ? false : seen.add(`${o.file}:${o.span[0]}`)))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.span[0] - b.span[0]));
}

/** How each kind of clash reads in the error message (details.conflicts keeps the codes). */
const CLASH: Record<string, string> = {
  already_defined: 'is already defined',
  captures_reference: 'would capture a reference to another binding',
  shadowed_by: 'would be shadowed by another binding',
};

/** The keyword attrs makes of a private field renamed to `name` (`_y` → `y`); a name that leaves none is refused. */
function attrsKeyword(name: string, where: string): string {
  const keyword = name.replace(/^_+/, '');
  if (!keyword) throw new TugError('InvalidArgument', `${name} leaves attrs no constructor keyword for the field at ${where}`, { details: { location: where, name } });
  return keyword;
}
