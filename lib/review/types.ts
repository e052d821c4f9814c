// The review TUI's view of the kernel: plain data it shows and the actions behind its keys, so ui/ needs only these types.
import type { FileDiff } from '../core/change-groups.js';
import type { Verification } from '../verify/verify.js';

/** One tug/ branch, as the result list shows it. */
export interface ResultSummary {
  branch: string;
  commit: string;
  operation: string;
  /** The commit subject after its `refactor(scope): ` prefix, e.g. `process_data -> transform_data`. */
  symbol: string;
  /** The commit the change starts from (the snapshot commit). */
  base: string;
  files: number;
  /** The Tug-Verification trailer, e.g. `passed (tests)`. */
  verification: string;
  /** When tug last changed the branch (operation log, else its undo record), else the commit's date; ISO 8601. */
  createdAt: string;
  /** How many logged operations built the branch (several when an agent's edits accumulated with `onto`). */
  steps: number;
  /** HEAD has commits the branch's base lacks (the base moved): replay it before merging. */
  stale?: boolean;
}

export interface ReviewFile {
  path: string;
  /** Where a moved file came from (module renames). */
  oldPath?: string;
  status: 'modified' | 'added' | 'deleted' | 'renamed';
  diff: FileDiff;
  /** False for files whose change cannot be split (binary, added or deleted): they are always kept. */
  splittable: boolean;
}

/** A result opened for review: the change from its base to the branch tip, file by file. */
export interface ReviewResult {
  branch: string;
  commit: string;
  base: string;
  operation: string;
  subject: string;
  verification: string;
  files: ReviewFile[];
  /** Set when HEAD has moved on from the branch's base: `behind` commits the branch lacks; `r` replays it. */
  stale?: { behind: number };
}

/** decisions[file][group]: true keeps the change group, false drops it. */
export type Decisions = boolean[][];

export type VerificationView = Verification;

/** One change of a subset, as the completeness check names it. */
export interface SubsetGap {
  file: string;
  /** 1-based line in the base. */
  line: number;
  old_text: string;
  new_text: string;
}

/** A kept subset of a rename, move or change-signature that leaves references broken (review/completeness.ts). */
export interface IncompleteSubset {
  /** Rejected changes the kept ones need. */
  rejected: SubsetGap[];
  kept: SubsetGap[];
  message: string;
}

/** `confirmIncomplete`: the person said yes to keeping an incomplete subset. */
export interface ActionOptions {
  confirmIncomplete?: boolean;
}

/** What `u` can take back, newest last on the TUI's stack. */
export type UndoEntry =
  | { kind: 'apply' | 'merge'; token: string; label: string }
  | { kind: 'commit'; branch: string; from: string; to: string; label: string };

/** The answer to every action key: a line for the status bar, checks that ran, what to show next. */
export interface ActionOutcome {
  ok: boolean;
  message: string;
  verification?: VerificationView;
  /** The result to show from now on (after a commit or an undo of one). */
  result?: ReviewResult;
  undo?: UndoEntry;
  /** The kept subset leaves references broken; commit, apply and merge refuse it until confirmed. */
  incomplete?: IncompleteSubset;
}

export interface ReviewKernel {
  list(): Promise<ResultSummary[]>;
  open(branch: string): Promise<ReviewResult>;
  /** Verifies the accepted subset in a sandbox; commits nothing. */
  verify(result: ReviewResult, decisions: Decisions): Promise<ActionOutcome>;
  /**
   * Verifies the accepted subset and commits it on the branch, as a child of the reviewed commit. A subset of a rename,
   * move or change-signature that leaves references broken is refused (`incomplete`) unless `confirmIncomplete`.
   */
  commit(result: ReviewResult, decisions: Decisions, options?: ActionOptions): Promise<ActionOutcome>;
  /** Writes the accepted subset into the working tree (committing it on the branch first when something was rejected). */
  apply(result: ReviewResult, decisions: Decisions, options?: ActionOptions): Promise<ActionOutcome>;
  /** `git merge`s the branch (after committing the accepted subset when something was rejected). */
  merge(result: ReviewResult, decisions: Decisions, options?: ActionOptions): Promise<ActionOutcome>;
  undo(entry: UndoEntry): Promise<ActionOutcome>;
  /** Redoes the branch's recorded operations on the current tree (tug replay): a new branch, opened in its place. */
  replay(result: ReviewResult): Promise<ActionOutcome>;
}

/** What the CLI hands the TUI (ui/main.tsx implements `runReview`); the TUI builds its kernel with its own progress sink. */
export interface ReviewTuiOptions {
  createKernel: (progress: (message: string) => void) => ReviewKernel;
  /** Open this branch at once instead of the list of tug/ branches. */
  branch?: string | undefined;
}

export interface ReviewTui {
  runReview(options: ReviewTuiOptions): Promise<void>;
}
