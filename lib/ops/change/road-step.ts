// A change run as one step of several (replay, plans): planned on a given commit instead of the working tree, committed
// without verification, branch or undo point; the caller verifies the last tree once and makes those itself.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChangeKind, Proposal } from './types.js';
import type { Snapshot } from '../workspace/snapshot.js';

export interface StepBase {
  commit: string;
  tree: string;
  /** Committer time the step's commit gets (the base's), so the same steps always make the same commits. */
  time: number;
}

export interface StepOutcome {
  /** The step's commit (parent: the base); the base itself when the step had nothing to do. */
  commit: string;
  tree: string;
  changed: boolean;
  proposal: Proposal;
  kind: ChangeKind;
  /** The caller's input, for the record. */
  input: Record<string, unknown>;
}

export interface RoadStep {
  base: StepBase;
  /**
   * step: commit on `base`, nothing else. last: the whole road (verification, branch, undo, apply) on `base`, which is the
   * tip of the steps before it, starting at `first`.
   */
  mode: 'step' | 'last';
  /** Where the first step started: the undo point and --apply cover every step from here. */
  first?: StepBase;
  /** Files the earlier steps changed, which the last step's syntax checks cover too. */
  earlierFiles?: string[];
  /** Recorded on the commit. */
  plan?: { index: number; steps: number };
  /** The user's HEAD where the first step started: set when the last road may --commit (move that branch). */
  user?: { head: Snapshot['head']; dirty: boolean };
  /** The branch the last road makes, instead of one named after the operation (a plan's tug/plan/...). */
  branch?: string;
  /** Set by the change road when the step is done. */
  outcome?: StepOutcome;
}

const current = new AsyncLocalStorage<RoadStep>();

/** Runs `body` (an operation's execute) as a step on `step.base`; the outcome is in `step.outcome` afterwards. */
export function runAsStep<T>(step: RoadStep, body: () => Promise<T>): Promise<T> {
  return current.run(step, body);
}

export function currentStep(): RoadStep | undefined {
  return current.getStore();
}
