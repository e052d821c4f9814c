// Where a TypeScript/JavaScript function or method is named, for change-signature: the language service's findReferences (aliases, re-exports, implementations and overrides included) asked in every project that holds a place found so far, and again from every definition found, until nothing new turns up.
import type * as TS from 'typescript';
import type { TsProject } from './projects.js';
import { editable } from './projects.js';
import type { TsWorkspace } from './workspace.js';

export interface Ref {
  file: string;
  /** UTF-16 offset in the file's text. */
  start: number;
}

export interface Found {
  refs: Ref[];
  /** Files outside the workspace that name it (installed packages, generated files). */
  outside: string[];
}

/**
 * `seedsOf` gives the places to search from again, in every project holding them: a definition (a sibling
 * implementation of an interface method is found from the interface, not from another implementation), and a name
 * that passes the function on under a property (`module.exports = { f }`, `const { f } = require(…)`), whose other
 * symbol the first search does not follow.
 */
export function findAllReferences(ws: TsWorkspace, file: string, position: number, seedsOf: (ref: Ref) => Ref[]): Found {
  const byKey = new Map<string, Ref>();
  const outside = new Set<string>();
  const asked = new Set<string>();
  const ask = (project: TsProject, ref: Ref) => {
    const key = `${project.config ?? '\0inferred'}\0${ref.file}\0${ref.start}`;
    if (asked.has(key)) return false;
    asked.add(key);
    for (const symbol of project.service.findReferences(ws.fs.absolute(ref.file), ref.start) ?? []) {
      for (const entry of symbol.references) {
        const rel = editable(ws.fs, entry.fileName, ws.paths);
        if (rel === null) {
          outside.add(ws.fs.relative(entry.fileName) ?? entry.fileName);
          continue;
        }
        const refKey = `${rel}\0${entry.textSpan.start}`;
        if (!byKey.has(refKey)) byKey.set(refKey, { file: rel, start: entry.textSpan.start });
      }
    }
    return true;
  };
  const all = ws.projects.all(ws.scripts, ws.configs);
  for (const project of ws.containing(file)) ask(project, { file, start: position });
  for (let progress = true; progress; ) {
    progress = false;
    for (const ref of [...byKey.values()]) {
      const seeds = seedsOf(ref);
      for (const project of all) {
        if (!project.service.getProgram()?.getSourceFile(ws.fs.absolute(ref.file))) continue;
        for (const seed of seeds) if (ask(project, seed)) progress = true;
        // Other places only fill in the projects not asked yet.
        if (seeds.length === 0 && ![...asked].some((k) => k.startsWith(`${project.config ?? '\0inferred'}\0`)) && ask(project, ref)) progress = true;
      }
    }
  }
  const refs = [...byKey.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start));
  return { refs, outside: [...outside].sort() };
}

/** The syntax tree of a workspace script, from the first project whose program holds it. */
export function sourceOf(ws: TsWorkspace, file: string): { source: TS.SourceFile; checker: TS.TypeChecker } | undefined {
  const absolute = ws.fs.absolute(file);
  for (const project of [...ws.containing(file), ...ws.projects.all(ws.scripts, ws.configs)]) {
    const program = project.service.getProgram();
    const source = program?.getSourceFile(absolute);
    if (program && source) return { source, checker: program.getTypeChecker() };
  }
  return undefined;
}
