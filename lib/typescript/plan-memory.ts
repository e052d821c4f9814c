// The last rename analysis of each warm workspace (its places and unsure list), kept while the programs it read stay the same: `analyze-impact` then `rename` of the same symbol searches once.
import type * as TS from 'typescript';
import type { TsWorkspace } from './workspace-build.js';

/**
 * One answer and what it was computed from. A language service hands back the same Program object until a file's
 * version, the root files or the options change (synchronizeHostData builds a new one otherwise), so the programs of
 * every project, compared by identity, say whether the answer still holds; the question is the rest of the key.
 */
interface Remembered<T> {
  /** Held weakly: a remembered answer must not keep a program the service has let go of alive. */
  programs: ReadonlyArray<WeakRef<TS.Program> | undefined>;
  question: string;
  answer: T;
}

/** Per workspace and kind of answer, the last one: a rebuilt workspace is a new object, and takes its memory with it. */
const memory = new WeakMap<TsWorkspace, Map<string, Remembered<unknown>>>();

/** The programs every project of the workspace reads now (each call also brings the service up to its host's files). */
export function currentPrograms(ws: TsWorkspace): Array<TS.Program | undefined> {
  return ws.projects.all(ws.scripts, ws.configs).map((p) => p.service.getProgram());
}

/**
 * `compute()`'s answer to `question` (of kind `kind`) on `programs`: the remembered one when the last question of this
 * kind was the same on the same programs, else computed now and remembered. Callers never change what it returns.
 */
export function remembered<T>(ws: TsWorkspace, kind: string, programs: ReadonlyArray<TS.Program | undefined>, question: string, compute: () => T): T {
  let kinds = memory.get(ws);
  if (!kinds) memory.set(ws, (kinds = new Map()));
  const last = kinds.get(kind) as Remembered<T> | undefined;
  const same = (held: WeakRef<TS.Program> | undefined, now: TS.Program | undefined) => (held === undefined ? now === undefined : now !== undefined && held.deref() === now);
  if (last && last.question === question && last.programs.length === programs.length && last.programs.every((p, i) => same(p, programs[i]))) return last.answer;
  const answer = compute();
  kinds.set(kind, { programs: programs.map((p) => (p === undefined ? undefined : new WeakRef(p))), question, answer });
  return answer;
}
