// The project as it will be after a rename, built in memory: edited files re-parsed, the rest reused, offsets mapped.
import path from 'node:path';
import type { EditRequest, FileMove } from '../core/patchset.js';
import { blobOid } from '../core/hash.js';
import { utf8 } from '../core/text.js';
import type { Facts } from './facts.js';
import { buildModuleMap, sourceRoots } from './modules.js';
import { Project } from './project.js';
import { Resolver } from './references.js';
import { factsFor } from './facts-source.js';
import type { WorkerPlaces } from './worker-pool.js';

export interface RenamedProject {
  resolver: Resolver;
  /** New contents of every edited file, by its new path. */
  bytesOf: Map<string, Uint8Array>;
  /** Old path → new path (module renames move files). */
  pathOf: (file: string) => string;
  /** An offset in the old file → the same place in the new one. */
  offsetOf: (file: string, offset: number) => number;
  changed: Set<string>;
}

interface Shift {
  start: number;
  end: number;
  delta: number;
}

/** Applies span edits to bytes (same order and de-duplication as the PatchSet). */
function applyEdits(bytes: Uint8Array, edits: readonly EditRequest[]): { bytes: Uint8Array; shifts: Shift[] } {
  const seen = new Set<number>();
  const sorted = [...edits].filter((e) => e.span && !seen.has(e.span.start) && seen.add(e.span.start)).sort((a, b) => a.span!.start - b.span!.start);
  const parts: Uint8Array[] = [];
  const shifts: Shift[] = [];
  let cursor = 0;
  for (const edit of sorted) {
    const { start, end } = edit.span!;
    if (start < cursor) continue;
    const replacement = utf8(edit.new_text);
    parts.push(bytes.subarray(cursor, start), replacement);
    shifts.push({ start, end, delta: replacement.length - (end - start) });
    cursor = end;
  }
  parts.push(bytes.subarray(cursor));
  return { bytes: Buffer.concat(parts), shifts };
}

export interface RenamedProjectRequest extends WorkerPlaces {
  project: Project;
  bytesOf: ReadonlyMap<string, Uint8Array>;
  edits: readonly EditRequest[];
  moves: readonly FileMove[];
  python: () => Promise<string>;
  /** The session's facts directory; renamed files get a cache of their own beneath it. */
  factsDir: string;
}

export async function renamedProject(request: RenamedProjectRequest): Promise<RenamedProject> {
  const moveOf = new Map(request.moves.map((m) => [m.from, m.to]));
  const pathOf = (file: string) => moveOf.get(file) ?? file;
  const byFile = new Map<string, EditRequest[]>();
  for (const edit of request.edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
  const shiftsOf = new Map<string, Shift[]>();
  const bytesOf = new Map<string, Uint8Array>();
  const sources = [];
  for (const [file, edits] of byFile) {
    const before = request.bytesOf.get(file);
    if (!before || !request.project.files.has(file)) continue;
    const after = applyEdits(before, edits);
    shiftsOf.set(file, after.shifts);
    bytesOf.set(pathOf(file), after.bytes);
    sources.push({ path: pathOf(file), oid: blobOid(after.bytes), text: Buffer.from(after.bytes).toString('utf8') });
  }
  // A cache apart from the project's: its `latest` pack must stay the whole project's, not this handful of files.
  const parsed = await factsFor({ python: request.python, cacheDir: path.join(request.factsDir, 'renamed'), workersDir: request.workersDir, ...(request.launchMemo ? { launchMemo: request.launchMemo } : {}), files: sources });
  const facts = new Map<string, Facts>();
  for (const info of request.project.files.values()) facts.set(pathOf(info.file), parsed.facts.get(pathOf(info.file)) ?? info.facts);
  const files = [...facts.keys()];
  const modules = request.moves.length === 0 ? request.project.modules : buildModuleMap(files, sourceRoots(files));
  const project = new Project(modules, facts);
  const offsetOf = (file: string, offset: number) => {
    let moved = offset;
    for (const s of shiftsOf.get(file) ?? []) if (s.end <= offset) moved += s.delta;
    return moved;
  };
  return { resolver: new Resolver(project), bytesOf, pathOf, offsetOf, changed: new Set(byFile.keys()) };
}
