// The last few rename analyses of each warm workspace (places, unsure lists) and completeness checks passed, kept while the programs they read stay the same: `analyze-impact` then `rename` of the same symbol searches once, and a rename asked again checks once, other questions in between.
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

/** The programs every project of the workspace reads now (each call also brings the service up to its host's files). */
export function currentPrograms(ws: TsWorkspace): Array<TS.Program | undefined> {
  return ws.projects.all(ws.scripts, ws.configs).map((p) => p.service.getProgram());
}

/** Whether `known` was computed for `question` on these very programs. */
function answers(known: Remembered<unknown>, programs: ReadonlyArray<TS.Program | undefined>, question: string): boolean {
  const same = (held: WeakRef<TS.Program> | undefined, now: TS.Program | undefined) => (held === undefined ? now === undefined : now !== undefined && held.deref() === now);
  return known.question === question && known.programs.length === programs.length && known.programs.every((p, i) => same(p, programs[i]));
}

function entry<T>(programs: ReadonlyArray<TS.Program | undefined>, question: string, answer: T): Remembered<T> {
  return { programs: programs.map((p) => (p === undefined ? undefined : new WeakRef(p))), question, answer };
}

/**
 * Per workspace and kind, the last few questions answered (most recent first): a rebuilt workspace is a new object, and
 * takes its memory with it.
 */
const several = new WeakMap<TsWorkspace, Map<string, Array<Remembered<unknown>>>>();

/**
 * `compute()`'s answer to `question` (of kind `kind`) on `programs`: the remembered one when one of the kind's last
 * `keep` questions was the same on the same programs (other questions may have come in between), else computed now and
 * remembered. An answer `compute` throws is not kept: the next ask computes it again. Callers never change what it
 * returns.
 */
export function remembered<T>(ws: TsWorkspace, kind: string, programs: ReadonlyArray<TS.Program | undefined>, question: string, keep: number, compute: () => T): T {
  const known = several.get(ws)?.get(kind)?.find((e) => answers(e, programs, question)) as Remembered<T> | undefined;
  if (known) {
    noteAnswer(ws, kind, programs, question, known.answer, keep);
    return known.answer;
  }
  const answer = compute();
  noteAnswer(ws, kind, programs, question, answer, keep);
  return answer;
}

/** Keeps `answer` to `question` on `programs` among the kind's last `keep` (what `remembered` finds again). */
export function noteAnswer<T>(ws: TsWorkspace, kind: string, programs: ReadonlyArray<TS.Program | undefined>, question: string, answer: T, keep: number): void {
  let kinds = several.get(ws);
  if (!kinds) several.set(ws, (kinds = new Map()));
  const others = (kinds.get(kind) ?? []).filter((e) => e.question !== question);
  kinds.set(kind, [entry(programs, question, answer), ...others].slice(0, keep));
}

/** Whether `remembered` would answer `question` of `kind` on `programs` from memory. */
export function knows(ws: TsWorkspace, kind: string, programs: ReadonlyArray<TS.Program | undefined>, question: string): boolean {
  return several.get(ws)?.get(kind)?.some((e) => answers(e, programs, question)) ?? false;
}

/** Whether two lists of programs are the same programs, one for one. */
export function samePrograms(a: ReadonlyArray<TS.Program | undefined>, b: ReadonlyArray<TS.Program | undefined>): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}
