// Python rename, start to finish on a snapshot: facts for every module, the symbol under the cursor, its occurrences, the edits.
import { TugError } from '../core/errors.js';
import { selects, type FileSelection } from '../core/file-selection.js';
import { sha256 } from '../core/hash.js';
import type { EditRequest, FileMove } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, offsetOf, positionOf } from '../core/text.js';
import type { Repo } from '../git/repo.js';
import { refuseAmbiguousPosition } from './ambiguous-position.js';
import { findConflicts } from './conflicts.js';
import { assertPythonIdentifier } from './identifiers.js';
import { entityKey, type Entity, type Project } from './project.js';
import { nameOf, requireRenamable, type Occurrence } from './references.js';
import { loadPythonProject } from './load-project.js';
import { mark } from '../ops/timing.js';

export interface RenameTarget {
  file: string;
  line: number;
  col: number;
}

export interface SymbolJSON {
  id: string;
  name: string;
  kind: string;
  location: { file: string; line: number; col: number; byte_start: number; byte_end: number };
}

export interface ReferenceJSON {
  location: { file: string; line: number; col: number; byte_start: number; byte_end: number };
  kind: 'definition' | 'call' | 'reference' | 'import' | 'attribute';
}

export interface RenamePlan {
  /** Files that move: a module file, or every file of a package directory. */
  moves: FileMove[];
  symbol: SymbolJSON;
  references: ReferenceJSON[];
  edits: EditRequest[];
  warnings: WarningJSON[];
  oldName: string;
  filesParsed: number;
}


export async function planPythonRename(
  repo: Repo,
  session: { dir: string; paths: { facts: string; workers: string } },
  tree: string,
  target: RenameTarget,
  newName: string,
  options: {
    python?: string | undefined;
    renameStrings?: boolean | undefined;
    renameComments?: boolean | undefined;
    selection?: FileSelection | undefined;
    /** safety_mode normal/aggressive: an ambiguous position takes the name before it, with a warning. */
    proceedOnAmbiguity?: boolean | undefined;
  },
): Promise<RenamePlan> {
  assertPythonIdentifier(newName);
  const loaded = await loadPythonProject(repo, session, tree, options.python, options.selection);
  const { project, resolver, bytesOf, allPaths, parsed } = loaded;
  const warnings = [...loaded.warnings];
  if (!bytesOf.has(target.file)) {
    if (loaded.skipped.has(target.file)) throw new TugError('UnsupportedFile', `${target.file} is not UTF-8 text`, { details: { path: target.file, reason: loaded.skipped.get(target.file) } });
    const relative = repo.prefix && target.file.startsWith(`${repo.prefix}/`) ? target.file.slice(repo.prefix.length + 1) : target.file;
    if (options.selection && loaded.allPaths.has(target.file) && !selects(options.selection, relative)) {
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
  if (!info) throw new TugError('SymbolNotFound', `${target.file} is not importable as a module, so tug cannot resolve names in it`, { details: { location: where } });
  const ambiguous = refuseAmbiguousPosition(resolver, info, bytes, offset, target, options.proceedOnAmbiguity);
  if (ambiguous) warnings.push(ambiguous.warning);
  const entity = requireRenamable(resolver.entityAt(info, ambiguous?.offset ?? offset), where);
  const oldName = nameOf(entity);
  const occurrences = resolver.occurrences(entity);
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
  const edits: EditRequest[] = occurrences.map((o) => ({ file: o.file, span: { start: o.span[0], end: o.span[1] }, old_text: oldName, new_text: newName }));
  const moves = entity.kind === 'module' ? moduleMoves(project, entity.module, newName, entries.map((e) => e.path), allPaths) : [];
  const touched = new Set(occurrences.map((o) => o.file));
  warnings.push(...dynamicWarnings(project, oldName, touched, bytesOf, Boolean(options.renameStrings)));
  const textual = textualEdits(project, oldName, newName, touched, bytesOf, options);
  edits.push(...textual.edits);
  warnings.push(...textual.warnings);
  return { moves, symbol, references, edits, warnings, oldName, filesParsed: parsed };
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

/**
 * Strings and comments are never edited in safe mode. With --rename-strings, string literals equal to the
 * old name change too; with --rename-comments, whole-word mentions in comments do. Each one is reported.
 */
function textualEdits(
  project: Project,
  oldName: string,
  newName: string,
  touched: Set<string>,
  bytesOf: Map<string, Uint8Array>,
  options: { renameStrings?: boolean | undefined; renameComments?: boolean | undefined },
): { edits: EditRequest[]; warnings: WarningJSON[] } {
  const edits: EditRequest[] = [];
  const warnings: WarningJSON[] = [];
  const word = new RegExp(`(?<![\\p{L}\\p{N}_])${oldName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_])`, 'gu');
  for (const info of project.files.values()) {
    const starts = lineStarts(bytesOf.get(info.file)!);
    const located = (offset: number) => ({ file: info.file, ...positionOf(starts, offset) });
    if (options.renameStrings) {
      const inAll = new Set((info.facts.all?.entries ?? []).map((e) => e.span[0]));
      for (const s of info.facts.strings) {
        if (s.value !== oldName || inAll.has(s.span[0])) continue;
        edits.push({ file: info.file, span: { start: s.span[0], end: s.span[1] }, old_text: oldName, new_text: newName });
        warnings.push({ code: 'StringRenamed', message: `the string "${oldName}" was renamed (--rename-strings)`, location: located(s.span[0]) });
      }
    }
    for (const comment of info.facts.comments ?? []) {
      for (const match of comment.text.matchAll(word)) {
        const start = comment.span[0] + Buffer.byteLength(comment.text.slice(0, match.index));
        if (options.renameComments) {
          edits.push({ file: info.file, span: { start, end: start + Buffer.byteLength(oldName) }, old_text: oldName, new_text: newName });
          warnings.push({ code: 'CommentRenamed', message: `a mention of ${oldName} in a comment was renamed (--rename-comments)`, location: located(start) });
        } else if (touched.has(info.file)) {
          warnings.push({ code: 'CommentMention', message: `a comment mentions ${oldName} and was left unchanged`, location: located(start) });
        }
      }
    }
  }
  return { edits, warnings };
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

/** getattr/eval and friends may reach the symbol by a string tug cannot see through; say where (seed L11). */
function dynamicWarnings(project: Project, name: string, touched: Set<string>, bytesOf: Map<string, Uint8Array>, stringsRenamed: boolean): WarningJSON[] {
  const warnings: WarningJSON[] = [];
  for (const info of project.files.values()) {
    for (const d of info.facts.dynamic) {
      const named = d.name_arg === name;
      if (!named && !(touched.has(info.file) && d.name_arg === null)) continue;
      warnings.push({
        code: 'DynamicReference',
        message: named ? `${d.kind}(…, "${name}") may refer to the renamed symbol and was not changed` : `${d.kind} in this file may reach symbols by name; review it`,
        location: { file: info.file, line: d.line, col: d.col },
        suggestion: 'Review manually.',
      });
    }
    const inAll = new Set((info.facts.all?.entries ?? []).map((e) => e.span[0]));
    for (const s of info.facts.strings) {
      if (stringsRenamed || s.value !== name || inAll.has(s.span[0])) continue;
      const { line, col } = positionOf(lineStarts(bytesOf.get(info.file)!), s.span[0]);
      warnings.push({ code: 'StringMention', message: `the string "${name}" was left unchanged`, location: { file: info.file, line, col } });
    }
  }
  return warnings;
}

/** How each kind of clash reads in the error message (details.conflicts keeps the codes). */
const CLASH: Record<string, string> = {
  already_defined: 'is already defined',
  captures_reference: 'would capture a reference to another binding',
  shadowed_by: 'would be shadowed by another binding',
};
