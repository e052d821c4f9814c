// A long-lived tug (daemon, MCP server) runs the completeness check on its first TypeScript analysis, answer discarded, so the renames after it do not pay for compiling the check's compiler code.
import { keepsInMemory } from '../core/memory.js';
import type * as TS from 'typescript';
import { currentPrograms, knows, noteAnswer, samePrograms } from './plan-memory.js';
import { mark } from '../core/timing.js';
import type { TsProject } from './projects.js';
import { assertRenamedSame } from './rename-check.js';
import type { Place } from './search.js';
import type { TsWorkspace } from './workspace-build.js';

/**
 * How many checks, and when to stop early. In a fresh daemon the check of a warm 501-file rename took 185, 120 and 115
 * ms before settling at ~70 (V8 optimizes the compiler's program reuse, parser, binder, checker and reference search
 * only after they ran a few times); two checks here brought the next renames' to 110, 92, 92 (docs/PERFORMANCE.md).
 */
const ROUNDS = 2;
const ENOUGH_MS = 500;

/** The compilers (by module object) whose check code this process has run already. */
const practised = new WeakSet<object>();

/**
 * Runs the rename's completeness check as a committed rename would, once per compiler in a process that keeps its
 * workspaces, and drops the outcome (a conflict included): called by an analysis, whose answer does not change. A
 * one-shot CLI process never gets here; in the daemon the first analysis is the project's cold load (or the warm-up
 * an auto-start asks for), which this makes ~0.2 s longer. `passed` is told when a check passed: the rename of the
 * same symbol on the same programs then needs no check of its own (plan-memory.ts).
 */
export function practiseCheck(ws: TsWorkspace, projects: readonly TsProject[], places: readonly Place[], oldName: string, newName: string, definition: { file: string; byte_start: number }, anchors: readonly Place[] = [], passed: () => void = () => {}): void {
  if (!keepsInMemory() || practised.has(ws.compiler.ts) || places.length === 0) return;
  practised.add(ws.compiler.ts);
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    try {
      assertRenamedSame(ws, projects, places, oldName, newName, definition, anchors);
      passed();
    } catch {
      // A rename the check refuses warms the same code; the analysis reports nothing of it.
    }
    mark('typescript: completeness check practised');
    if (performance.now() - started > ENOUGH_MS) return;
  }
}

/**
 * In a process that keeps its workspaces, the check of the rename an analysis just answered, run once that answer is on
 * its way (the next turn of the event loop) and kept when it passes: the rename that usually follows finds it proven
 * (plan-memory.ts) instead of checking then. Skipped when the workspace has moved to other programs meanwhile, or the
 * check is known already; a refused rename is not kept (the rename checks again and reports it).
 */
export function prepareCheck(ws: TsWorkspace, programs: ReadonlyArray<TS.Program | undefined>, question: string, keep: number, check: () => void): void {
  if (!keepsInMemory() || knows(ws, 'check', programs, question)) return;
  setImmediate(() => {
    if (knows(ws, 'check', programs, question) || !samePrograms(currentPrograms(ws), programs)) return;
    try {
      check();
      noteAnswer(ws, 'check', programs, question, undefined, keep);
    } catch {
      // Not kept: the rename runs the check itself.
    }
    mark('typescript: completeness check prepared');
  });
}
