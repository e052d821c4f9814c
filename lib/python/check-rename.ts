// Runs the completeness check of a planned Python rename: the renamed project in memory, then what it leaves behind.
import path from 'node:path';
import type { EditRequest, FileMove } from '../core/patchset.js';
import type { Repo } from '../git/repo.js';
import { resolvePython } from './interpreter.js';
import { assertComplete, leftOvers } from './completeness.js';
import type { LoadedProject } from './load-project.js';
import type { Entity } from './project.js';
import { renamedProject } from './renamed-project.js';

export interface CheckRequest {
  repo: Repo;
  session: { dir: string; paths: { facts: string; workers: string } };
  python: string | undefined;
  loaded: LoadedProject;
  /** The symbol and its stub twins. */
  entities: Entity[];
  oldName: string;
  newName: string;
  edits: readonly EditRequest[];
  moves: readonly FileMove[];
}

/** Throws IncompleteRename when the planned edits leave any reference behind. */
export async function checkComplete(request: CheckRequest): Promise<void> {
  const { loaded, oldName, newName } = request;
  const after = await renamedProject({
    project: loaded.project,
    bytesOf: loaded.bytesOf,
    edits: request.edits,
    moves: request.moves,
    python: async () => (await resolvePython(request.python, request.session.dir)).path,
    factsDir: request.session.paths.facts,
    workersDir: request.session.paths.workers,
  });
  const mentioning = new Set<string>();
  for (const [file, bytes] of loaded.bytesOf) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (buffer.includes(oldName) || buffer.includes(newName)) mentioning.add(file);
  }
  const left = leftOvers({
    before: loaded.resolver,
    after,
    targets: request.entities,
    oldName,
    newName,
    mentioning,
    bytesOf: (file) => after.bytesOf.get(file) ?? loaded.bytesOf.get(file),
  });
  assertComplete(left, oldName, newName);
}
