// The completeness check of a TypeScript rename: the renamed text is given to the same language service, which must find exactly the renamed places as the symbol's and no new duplicate declaration.
import { TugError } from '../core/errors.js';
import { lineStarts, positionOf } from '../core/text.js';
import { OffsetMap } from './files.js';
import type { TsProject } from './projects.js';
import type * as TS from 'typescript';
import { searchEverywhere, type Place } from './search.js';
import { TrialServices } from './trial.js';
import type { TsWorkspace } from './workspace.js';

/** Diagnostics that say two declarations now share a name. */
const DUPLICATES = new Set([2300, 2451, 2393, 2392, 2323, 2528]);

type Spot = { file: string; line: number; col: number; reason: string };

/**
 * `also`: places (among `places`) the renamed text is searched from besides the definition: the declaration of the same
 * export in a hand-written declaration file (hand-declared.ts), which the definition's search cannot reach.
 */
export function assertRenamedSame(ws: TsWorkspace, projects: readonly TsProject[], places: readonly Place[], oldName: string, newName: string, definition: { file: string; byte_start: number }, also: readonly Place[] = []): void {
  if (places.length === 0) return;
  const { fs } = ws;
  const byFile = new Map<string, Place[]>();
  for (const place of places) byFile.set(place.file, [...(byFile.get(place.file) ?? []), place]);
  const suspects = duplicateSuspects(ws, projects, [...byFile.keys()], newName);
  const duplicatesBefore = duplicateCount(ws, projects, suspects);
  /** Where the new name starts in the renamed text, per place. */
  const expected = new Map<string, Place>();
  const newTexts = new Map<string, string>();
  for (const [file, list] of byFile) {
    const text = fs.readFile(fs.absolute(file))!;
    let out = '';
    let last = 0;
    for (const place of list) {
      out += text.slice(last, place.start) + place.prefix;
      expected.set(`${file}\0${out.length}`, place);
      out += newName + place.suffix;
      last = place.start + place.length;
    }
    newTexts.set(file, out + text.slice(last));
  }
  const defMap = new OffsetMap(fs.readFile(fs.absolute(definition.file)) ?? '');
  const defPlace = places.find((p) => p.file === definition.file && defMap.byteOf(p.start) === definition.byte_start) ?? places[0]!;
  const anchors = [defPlace, ...also].map((at) => [...expected].find(([, p]) => p === at)![0].split('\0'));
  // The renamed text goes to the projects' trial services: the kept ones stay on the snapshot for the next analysis.
  const trials = new TrialServices(ws, newTexts);
  try {
    const found = new Set<string>();
    const extra: Spot[] = [];
    for (const anchor of anchors) {
      const after = searchEverywhere(ws, ws.containing(anchor[0]!, trials.of), fs.absolute(anchor[0]!), Number(anchor[1]), false, trials.of);
      for (const place of after.places) {
        const key = `${place.file}\0${place.start}`;
        if (!expected.has(key) && !found.has(key)) extra.push(spot(ws, place.file, newTexts.get(place.file) ?? fs.readFile(fs.absolute(place.file)) ?? '', place.start, 'captured'));
        found.add(key);
      }
    }
    const left = [...expected].filter(([key]) => !found.has(key)).map(([key, place]) => {
      const at = Number(key.split('\0')[1]);
      return spot(ws, place.file, newTexts.get(place.file)!, at, 'resolves_elsewhere');
    });
    const duplicatesAfter = duplicateCount(ws, projects, suspects, trials.of);
    if (extra.length > 0 || duplicatesAfter.count > duplicatesBefore.count) {
      const conflicts = extra.length > 0 ? extra : duplicatesAfter.spots;
      const first = conflicts[0]!;
      throw new TugError('NameConflict', `renaming ${oldName} to ${newName} would change what names refer to: ${newName} is ${extra.length > 0 ? 'already used' : 'declared twice'} at ${first.file}:${first.line}:${first.col}`, {
        details: { conflicts },
        location: { file: first.file, line: first.line, col: first.col },
      });
    }
    if (left.length > 0) {
      const first = left[0]!;
      throw new TugError('IncompleteRename', `renaming ${oldName} to ${newName} would leave ${left.length} place(s) that no longer resolve as before, first ${first.file}:${first.line}:${first.col}`, {
        details: { old_name: oldName, new_name: newName, left },
        location: { file: first.file, line: first.line, col: first.col },
      });
    }
  } finally {
    trials.end();
  }
}

/** The position of a UTF-16 offset of `text` (a file's old or new text) as tug reports it. */
function spot(ws: TsWorkspace, file: string, text: string, at: number, reason: string): Spot {
  const bytes = new TextEncoder().encode(text);
  return { file, ...positionOf(lineStarts(bytes), new OffsetMap(text).byteOf(at)), reason };
}

/**
 * The renamed files where the new name can meet a declaration it did not meet before: a module that already had the
 * word, or a file sharing a scope with other files (a global script, `declare global`, a module augmentation). In any
 * other module every declaration of the new name is a renamed one, so the rename adds no duplicate there; leaving
 * those out spares a type check of each (on a project of 500 files, most of a warm rename's time).
 */
function duplicateSuspects(ws: TsWorkspace, projects: readonly TsProject[], files: readonly string[], newName: string): string[] {
  // Public at run time since TypeScript 2.x, left out of the published types.
  const ts = ws.compiler.ts as typeof ws.compiler.ts & { isExternalOrCommonJsModule(file: import('typescript').SourceFile): boolean };
  const word = new RegExp(`(?<![\\p{ID_Continue}$#])${newName.replace(/\$/g, '\\$')}(?![\\p{ID_Continue}$])`, 'u');
  // Each getProgram call checks every file's version: asked once per project, not once per file (500² checks on 500 files).
  const programs = projects.map((p) => p.service.getProgram());
  return files.filter((file) => {
    const absolute = ws.fs.absolute(file);
    const text = ws.fs.readFile(absolute) ?? '';
    const source = programs.map((p) => p?.getSourceFile(absolute)).find((s) => s !== undefined) ?? holderOf(ws, projects, absolute)?.service.getProgram()?.getSourceFile(absolute);
    return !source || !ts.isExternalOrCommonJsModule(source) || word.test(text) || /\bdeclare\s+(global|module)\b/.test(text);
  });
}

function duplicateCount(ws: TsWorkspace, projects: readonly TsProject[], files: readonly string[], serviceOf: (project: TsProject) => TS.LanguageService = (p) => p.service): { count: number; spots: Spot[] } {
  const spots: Spot[] = [];
  if (files.length === 0) return { count: 0, spots };
  const programs = projects.map((p) => serviceOf(p).getProgram());
  for (const file of files) {
    const absolute = ws.fs.absolute(file);
    // A place in another project's file (a referenced project, a hand-written declaration's users) is asked there: a
    // service asked about a file its program lacks throws ("Could not find source file", seen once on rehype).
    const project = projects.find((_, i) => programs[i]?.getSourceFile(absolute)) ?? holderOf(ws, projects, absolute);
    if (!project) continue;
    for (const d of serviceOf(project).getSemanticDiagnostics(absolute)) {
      if (DUPLICATES.has(d.code) && d.start !== undefined) spots.push(spot(ws, file, d.file?.text ?? '', d.start, 'duplicate'));
    }
  }
  return { count: spots.length, spots };
}

/** A project of the workspace other than `projects` whose program holds `absolute`, asked only for such a file. */
function holderOf(ws: TsWorkspace, projects: readonly TsProject[], absolute: string): TsProject | undefined {
  // The snapshot's programs: a rename adds no file, so the trial service of the same project holds the same ones.
  return ws.projects.all(ws.scripts, ws.configs).find((p) => !projects.includes(p) && p.service.getProgram()?.getSourceFile(absolute) !== undefined);
}
