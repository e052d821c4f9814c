// Plans a TypeScript/JavaScript rename with the language service: getRenameInfo, findRenameLocations in every project holding the file, the unsure places, then a check on the renamed text that every place still means what it meant.
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import type { EditRequest, FileMove } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, offsetOf, positionOf } from '../core/text.js';
import type { Repo } from '../git/repo.js';
import { mark } from '../core/timing.js';
import { OffsetMap } from './files.js';
import { assertTsName } from './identifiers.js';
import { referenceKind, symbolKind, type ReferenceKind } from './occurrences.js';
import { editable, type TsProject } from './projects.js';
import { findTsUnsure, type TsUnsure } from './unsure.js';
import { openTsWorkspace, requireScript, type TsWorkspace } from './workspace.js';
import { assertRenamedSame } from './rename-check.js';
import { handDeclaredPartner } from './hand-declared.js';
import { packageDeclarationUnsure } from './package-declarations.js';
import { searchEverywhere, type Place } from './search.js';
import { assertNoUntypedData } from './untyped-data.js';
import { currentPrograms, noteAnswer, remembered, samePrograms } from './plan-memory.js';
import { practiseCheck, prepareCheck } from './practice.js';

/**
 * Answers of each kind (places, unsure list, completeness check passed) kept per workspace: a few renames and analyses
 * asked in turn each search and check once (plan-memory.ts).
 */
const ANSWERS_KEPT = 8;

type LocationJSON = { file: string; line: number; col: number; byte_start: number; byte_end: number };

export interface TsRenamePlan {
  symbol: { id: string; name: string; kind: string; location: LocationJSON };
  references: Array<{ location: LocationJSON; kind: ReferenceKind }>;
  edits: EditRequest[];
  moves: FileMove[];
  warnings: WarningJSON[];
  unsure: TsUnsure[];
  oldName: string;
  /** With `check: 'later'`: the completeness check, for the caller to run (it throws what the plan would have). */
  check?: () => Promise<void>;
}

export interface TsPlanInput {
  repo: Repo;
  tree: string;
  target: { file: string; line: number; col: number };
  newName: string;
  includeUnsure?: boolean | undefined;
  /**
   * Re-analyse the renamed text (a run that commits); analyze-impact skips it. `'later'`: the plan answers first and
   * hands the check back (TsRenamePlan.check), which the change pipeline runs while git writes the result's objects.
   */
  check?: boolean | 'later' | undefined;
}

export async function planTsRename(input: TsPlanInput): Promise<TsRenamePlan> {
  const { target } = input;
  const ws = await openTsWorkspace(input.repo, input.tree, target.file);
  mark('typescript: workspace open');
  const { ts } = ws.compiler;
  const bytes = requireScript(ws, target.file);
  const where = `${target.file}:${target.line}:${target.col}`;
  const offset = offsetOf(bytes, lineStarts(bytes), target.line, target.col);
  if (offset === null) throw new TugError('InvalidPosition', `${where} is outside the file`, { details: { location: where, file_lines: lineStarts(bytes).length }, location: target });
  const absolute = ws.fs.absolute(target.file);
  const text = ws.fs.readFile(absolute)!;
  const position = new OffsetMap(text).utf16Of(offset);
  const projects = ws.containing(target.file);
  const primary = projects[0];
  if (!primary) throw new TugError('InternalError', `no TypeScript project holds ${target.file}`, { details: { path: target.file } });
  const parseErrors = primary.service.getSyntacticDiagnostics(absolute);
  if (parseErrors.length > 0) throw syntaxError(ts, target.file, bytes, parseErrors[0]!);
  const info = primary.service.getRenameInfo(absolute, position, { allowRenameOfImportPath: false });
  const span = info.canRename ? info.triggerSpan : undefined;
  if (span && !(span.start <= position && position <= span.start + span.length)) {
    // The service answers for the declaration around a keyword (`export`, `function`); tug renames only the name pointed at.
    throw new TugError('SymbolNotFound', `no renamable symbol at ${where}: the position is not on a name`, { details: { location: where, reason: 'not on a name' }, location: target });
  }
  if (!info.canRename) {
    const reason = info.localizedErrorMessage;
    const outside = /node_modules|standard TypeScript library|library/i.test(reason);
    throw new TugError(outside ? 'UnsafeRefactor' : 'SymbolNotFound', outside ? `the symbol at ${where} is defined outside the workspace: ${reason}` : `no renamable symbol at ${where}: ${reason}`, {
      details: outside ? { reason, line: target.line, col: target.col } : { location: where, reason },
      location: target,
    });
  }
  const oldName = text.slice(info.triggerSpan.start, info.triggerSpan.start + info.triggerSpan.length);
  assertTsName(ts, input.newName, oldName);
  if (oldName === input.newName) throw new TugError('InvalidArgument', `the symbol at ${where} is already called ${oldName}`, { details: { argument: 'to', reason: 'same name' } });

  const warnings: WarningJSON[] = ws.projects.problems.map((p) => ({ code: 'ConfigNotRead', message: `${p.config} could not be read: ${p.message}; its files were analysed with default options` }));
  // What the analysis finds is a function of the programs and the question: asked again on the same programs (a rename
  // after its analyze-impact), it is not searched again. The completeness check below always runs on the renamed text.
  const programs = currentPrograms(ws);
  // A copy: the places of a hand-declared module's other file are added to it below, and the remembered list stays as it was.
  const places = [...placesOf(ws, programs, projects, target.file, position, oldName, warnings)];
  mark(`typescript: ${places.length} places found`);
  const sourceOf = sourceFinder(ws, projects);
  const member = ['property', 'method', 'getter', 'setter', 'JSX attribute', 'enum member'].includes(info.kind) || (info.kind === 'alias' ? false : /member|property|method/.test(info.kindModifiers ?? ''));
  if (member) {
    const program = primary.service.getProgram();
    if (program) assertNoUntypedData(ts, program, absolute, position, oldName, [...new Set(places.map((p) => ws.fs.absolute(p.file)))], (f) => ws.fs.relative(f) ?? f, (f) => editable(ws.fs, f, ws.paths) !== null);
  }
  let definition = definitionOf(ws, primary, absolute, position);
  const kindOf = (place: Place) => referenceKind(ts, sourceOf(place.file)?.source, place.start);
  const atDefinition = (place: Place) => {
    if (definition) return place.file === definition.file && offsetMapOf(ws, place.file).byteOf(place.start) === definition.byte_start;
    return kindOf(place) === 'definition';
  };
  const declared = places.find(atDefinition) ?? places.find((p) => kindOf(p) === 'definition');
  // A module whose types are declared by hand beside it: the same export of the other file is renamed too, with its users.
  const partner = declared
    ? handDeclaredPartner({
        ts, paths: ws.paths, file: declared.file, start: declared.start, oldName, member, sourceOf,
        own: places.filter((p) => p.file === declared.file),
        textOf: (f) => ws.fs.readFile(ws.fs.absolute(f)) ?? '',
        definition: definition ?? locationOf(ws, declared.file, offsetMapOf(ws, declared.file).byteOf(declared.start), offsetMapOf(ws, declared.file).byteOf(declared.start + declared.length)),
      })
    : null;
  let partnerPlace: Place | undefined;
  if (partner) {
    const known = new Set(places.map((p) => `${p.file}\0${p.start}`));
    for (const place of withOutside(searchEverywhere(ws, ws.containing(partner.file), ws.fs.absolute(partner.file), partner.start), warnings)) {
      if (!known.has(`${place.file}\0${place.start}`)) places.push(place);
      known.add(`${place.file}\0${place.start}`);
    }
    places.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start));
    partnerPlace = places.find((p) => p.file === partner.file && p.start === partner.start);
    if (!partnerPlace) throw new TugError('InternalError', `the rename of ${oldName} found no place at its declaration in ${partner.file}`, { details: { path: partner.file } });
    mark(`typescript: ${places.length} places with ${partner.file}`);
  }
  const edits: EditRequest[] = [];
  const references: TsRenamePlan['references'] = [];
  for (const place of places) {
    const map = offsetMapOf(ws, place.file);
    const start = map.byteOf(place.start);
    const end = map.byteOf(place.start + place.length);
    edits.push({ file: place.file, span: { start, end }, old_text: decoded(ws, place.file, start, end), new_text: `${place.prefix}${input.newName}${place.suffix}` });
    references.push({ location: locationOf(ws, place.file, start, end), kind: kindOf(place) });
  }
  definition ??= references.find((r) => r.kind === 'definition')?.location ?? locationOf(ws, target.file, offset, offset + oldName.length);
  for (const ref of references) if (ref.location.file === definition.file && ref.location.byte_start === definition.byte_start) ref.kind = 'definition';

  const renamedSet = new Set(places.map((p) => `${p.file}\0${p.start}`));
  const includeUnsure = input.includeUnsure ?? false;
  const check = remembered(ws, 'unsure', programs, JSON.stringify([target.file, position, oldName, input.newName, member, includeUnsure]), ANSWERS_KEPT, () => {
    const files = ws.scripts.flatMap((file) => {
      const found = sourceOf(file);
      return found ? [{ file, source: found.source, checker: found.checker, bytes: ws.bytes.get(file)! }] : [];
    });
    return findTsUnsure({ ts, files, oldName, newName: input.newName, member, renamed: renamedSet, includeUnsure });
  });
  const declarationFiles = packageDeclarationUnsure({
    ts, paths: ws.paths, textOf: (f) => ws.fs.readFile(ws.fs.absolute(f)), file: definition.file, source: sourceOf(definition.file)?.source,
    start: declared?.file === definition.file ? declared.start : undefined, oldName, newName: input.newName, member,
    edited: new Set(places.map((p) => p.file)), includeUnsure,
  });
  mark('typescript: unsure places scanned');
  // The check's answer is a function of the programs and its question (the places, the names, where it searches from): a
  // rename asked again on the same programs (after its practice, or another rename in between) was proven already.
  const anchors = partnerPlace ? [partnerPlace] : [];
  const checkQuestion = JSON.stringify([target.file, places.map((p) => [p.file, p.start, p.length, p.prefix, p.suffix]), oldName, input.newName, definition.file, definition.byte_start, anchors.map((p) => [p.file, p.start])]);
  const defined = definition;
  const runCheck = () => {
    remembered(ws, 'check', programs, checkQuestion, ANSWERS_KEPT, () => assertRenamedSame(ws, projects, places, oldName, input.newName, defined, anchors));
    mark('typescript: renamed text checked');
  };
  let later: (() => Promise<void>) | undefined;
  if (input.check === 'later') {
    const planned = [...edits, ...check.edits, ...declarationFiles.edits];
    later = () => checkLater(ws, programs, runCheck, async () => (await planTsRename({ ...input, check: true })).edits, planned);
  } else if (input.check) {
    runCheck();
  } else {
    practiseCheck(ws, projects, places, oldName, input.newName, definition, anchors, () => noteAnswer(ws, 'check', programs, checkQuestion, undefined, ANSWERS_KEPT));
    prepareCheck(ws, programs, checkQuestion, ANSWERS_KEPT, () => assertRenamedSame(ws, projects, places, oldName, input.newName, definition, anchors));
  }
  return {
    symbol: { id: `sym_${sha256(`typescript\0${definition.file}\0${definition.byte_start}\0${oldName}`).slice(0, 12)}`, name: oldName, kind: symbolKind(info.kind), location: definition },
    references,
    // Copies: the remembered lists stay as they were whatever the caller does with its answer.
    edits: [...edits, ...structuredClone(check.edits), ...declarationFiles.edits],
    moves: [],
    warnings,
    unsure: [...structuredClone(check.unsure), ...declarationFiles.unsure],
    oldName,
    ...(later ? { check: later } : {}),
  };
}

/**
 * The check left for later, on the programs the plan searched. The workspace is only used without a wait in between
 * (workspace.ts), and the caller waited (for git) since the plan: when another call has moved it to other programs
 * meanwhile (or let it go), the rename is planned again on its snapshot with the check inline, and must come out the
 * same.
 */
async function checkLater(ws: TsWorkspace, programs: ReadonlyArray<TS.Program | undefined>, check: () => void, planAgain: () => Promise<EditRequest[]>, planned: readonly EditRequest[]): Promise<void> {
  let same: boolean;
  try {
    same = samePrograms(currentPrograms(ws), programs);
  } catch {
    same = false; // its services were disposed of: the workspace was rebuilt or evicted
  }
  if (same) return check();
  mark('typescript: workspace moved before the check; planned again');
  const again = await planAgain();
  if (JSON.stringify(again) !== JSON.stringify(planned)) {
    throw new TugError('InternalError', 'the rename planned again on the same snapshot came out different', { details: { reason: 'workspace moved during the rename' } });
  }
}

/**
 * Asked at a use, a program stops at a project boundary and renames only the local binding (`import { a as b }`); asked
 * at the symbol's declaration, every program that holds it answers for all its users. So the search starts at the
 * declaration when it is in the workspace under the same name (not an alias), and at the position otherwise.
 */
function placesOf(ws: TsWorkspace, programs: ReadonlyArray<TS.Program | undefined>, projects: readonly TsProject[], file: string, position: number, oldName: string, warnings: WarningJSON[]): Place[] {
  return withOutside(remembered(ws, 'places', programs, `${file}\0${position}\0${oldName}`, ANSWERS_KEPT, () => searchFrom(ws, projects, file, position, oldName)), warnings, oldName);
}

type Found = ReturnType<typeof searchEverywhere> & { declaration?: LocationJSON };

function searchFrom(ws: TsWorkspace, projects: readonly TsProject[], file: string, position: number, oldName: string): Found {
  const absolute = ws.fs.absolute(file);
  for (const def of projects[0]!.service.getDefinitionAtPosition(absolute, position) ?? []) {
    const defFile = editable(ws.fs, def.fileName, ws.paths);
    if (defFile === null || (defFile === file && def.textSpan.start <= position && position <= def.textSpan.start + def.textSpan.length)) break;
    if (ws.fs.readFile(def.fileName)?.slice(def.textSpan.start, def.textSpan.start + def.textSpan.length) !== oldName) break;
    // Searched once: the places from the declaration are the answer when they hold the position asked at.
    const found = searchEverywhere(ws, ws.containing(defFile), def.fileName, def.textSpan.start);
    if (found.places.some((p) => p.file === file && p.start <= position && position <= p.start + p.length)) return found;
    // The declaration's rename does not reach this use: the name comes through a re-export that keeps its public name
    // (`export { a } from` becomes `export { b as a } from`). Only the local binding is renamed below, and a warning
    // says so, with where the declaration is, so that no one takes it for the symbol's rename.
    const map = offsetMapOf(ws, defFile);
    return { ...searchEverywhere(ws, projects, absolute, position), declaration: locationOf(ws, defFile, map.byteOf(def.textSpan.start), map.byteOf(def.textSpan.start + def.textSpan.length)) };
  }
  return searchEverywhere(ws, projects, absolute, position);
}

function withOutside({ places, outside, declaration }: Found, warnings: WarningJSON[], oldName?: string): Place[] {
  if (declaration) {
    warnings.push({
      code: 'LocalBindingOnly',
      message: `only this module's binding of ${oldName} was renamed: the rename of its declaration (${declaration.file}:${declaration.line}:${declaration.col}) does not reach this use, which gets the name through a re-export or alias that keeps it; ask there to rename ${oldName} itself`,
      location: declaration,
    });
  }
  for (const where of outside) {
    warnings.push({ code: 'OutsideWorkspace', message: `${where} uses the symbol but is not a file of the workspace (an installed package or a generated file); it was left as it is` });
  }
  return places;
}

/** Each script's syntax tree and type checker, from the first project whose program holds it. */
function sourceFinder(ws: TsWorkspace, projects: readonly TsProject[]): (file: string) => { source: TS.SourceFile; checker: TS.TypeChecker } | undefined {
  const all = [...projects, ...ws.projects.all(ws.scripts, ws.configs).filter((p) => !projects.includes(p))];
  const programs = all.map((p) => p.service.getProgram()).filter((p): p is TS.Program => p !== undefined);
  const checkers = new Map<TS.Program, TS.TypeChecker>();
  return (file) => {
    const absolute = ws.fs.absolute(file);
    for (const program of programs) {
      const source = program.getSourceFile(absolute);
      if (!source) continue;
      let checker = checkers.get(program);
      if (!checker) checkers.set(program, (checker = program.getTypeChecker()));
      return { source, checker };
    }
    return undefined;
  };
}

function definitionOf(ws: TsWorkspace, project: TsProject, absolute: string, position: number): LocationJSON | null {
  const definitions = project.service.getDefinitionAtPosition(absolute, position) ?? [];
  for (const def of definitions) {
    const file = editable(ws.fs, def.fileName, ws.paths);
    if (file === null) continue;
    const map = new OffsetMap(ws.fs.readFile(def.fileName)!);
    return locationOf(ws, file, map.byteOf(def.textSpan.start), map.byteOf(def.textSpan.start + def.textSpan.length));
  }
  return null;
}

/** Per file, for the places of one rename (a file may hold hundreds): its offset map and line starts, made once. */
const perFile = new WeakMap<Uint8Array, { map?: OffsetMap; starts?: number[] }>();

function cached(ws: TsWorkspace, file: string) {
  const bytes = ws.bytes.get(file)!;
  let entry = perFile.get(bytes);
  if (!entry) perFile.set(bytes, (entry = {}));
  return entry;
}

function offsetMapOf(ws: TsWorkspace, file: string): OffsetMap {
  const entry = cached(ws, file);
  return (entry.map ??= new OffsetMap(ws.fs.readFile(ws.fs.absolute(file))!));
}

export function locationOf(ws: TsWorkspace, file: string, start: number, end: number): LocationJSON {
  const entry = cached(ws, file);
  return { file, ...positionOf((entry.starts ??= lineStarts(ws.bytes.get(file)!)), start), byte_start: start, byte_end: end };
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function decoded(ws: TsWorkspace, file: string, start: number, end: number): string {
  return decoder.decode(ws.bytes.get(file)!.subarray(start, end));
}

export function syntaxError(ts: typeof TS, file: string, bytes: Uint8Array, diagnostic: TS.Diagnostic): TugError {
  const map = new OffsetMap(diagnostic.file?.text ?? '');
  const at = positionOf(lineStarts(bytes), map.byteOf(diagnostic.start ?? 0));
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  return new TugError('SourceSyntaxError', `${file}:${at.line}:${at.col} does not parse: ${message}`, { details: { file, line: at.line, col: at.col, message }, location: { file, ...at } });
}
