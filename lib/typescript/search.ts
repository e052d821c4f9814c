// Where the language service says a symbol is written, asked in every project that can see it: the places a rename edits and the completeness check compares.
import type * as TS from 'typescript';
import { editable, type TsProject } from './projects.js';
import type { TsWorkspace } from './workspace.js';

/** A place the rename writes: the service's span (UTF-16) and the text around the new name it asks for. */
export interface Place {
  file: string;
  start: number;
  length: number;
  prefix: string;
  suffix: string;
}

/**
 * The rename's places from every project holding the file (a file may sit in a build config and a test config), once
 * each. A program leaves out the places in a referenced project's own files (tsserver asks that project itself), so
 * every other project that holds a place found so far among its own files is asked too, from that place, until none is
 * left: the union is what a build of all of them sees.
 */
export function searchEverywhere(
  ws: TsWorkspace,
  projects: readonly TsProject[],
  absolute: string,
  position: number,
  affixes = true,
  serviceOf: (project: TsProject) => TS.LanguageService = (p) => p.service,
): { places: Place[]; outside: string[] } {
  const byKey = new Map<string, Place>();
  const outside = new Set<string>();
  const search = (project: TsProject, file: string, at: number) => {
    const found = serviceOf(project).findRenameLocations(file, at, false, false, { providePrefixAndSuffixTextForRename: affixes } as unknown as boolean) ?? [];
    for (const loc of found) {
      const rel = editable(ws.fs, loc.fileName, ws.paths);
      if (rel === null) {
        outside.add(ws.fs.relative(loc.fileName) ?? loc.fileName);
        continue;
      }
      const key = `${rel}\0${loc.textSpan.start}`;
      if (!byKey.has(key)) byKey.set(key, { file: rel, start: loc.textSpan.start, length: loc.textSpan.length, prefix: loc.prefixText ?? '', suffix: loc.suffixText ?? '' });
    }
  };
  const searched = new Set<TsProject>();
  for (const project of projects) {
    search(project, absolute, position);
    searched.add(project);
  }
  for (let progress = true; progress; ) {
    progress = false;
    for (const project of ws.projects.all(ws.scripts, ws.configs)) {
      if (searched.has(project)) continue;
      const own = new Set(project.fileNames);
      // A plain occurrence only: asked at an alias (`import { a as b }`) the service would rename the alias alone.
      const seed = [...byKey.values()].find((p) => p.prefix === '' && p.suffix === '' && own.has(ws.fs.absolute(p.file)));
      if (!seed) continue;
      searched.add(project);
      search(project, ws.fs.absolute(seed.file), seed.start);
      progress = true;
    }
  }
  const places = [...byKey.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start));
  return { places, outside: [...outside].sort() };
}

