// The words of the change road: what a caller asks for, what an operation proposes, and what the pipeline reports.
import type { CheckProgress } from '../../verify/run-check.js';
import type { PatchSet } from '../../core/patchset.js';
import type { WarningJSON } from '../../core/schemas.js';
import type { VerifyMode } from '../../verify/verify.js';
import type { UnsureJSON } from './unsure.js';
import type { RecordedSymbolJSON } from './record.js';
import type { Snapshot } from '../workspace/snapshot.js';
import type { CommonInput, Workspace } from '../workspace/workspace.js';

export interface ChangeOptions extends CommonInput {
  snapshot?: string | undefined;
  /** Unset: the configured mode (tug.toml, [tool.tug], TUG_VERIFY), else syntax. */
  verify?: VerifyMode | undefined;
  apply?: boolean | undefined;
  commit?: boolean | undefined;
  keep_sandbox?: boolean | undefined;
  python?: string | undefined;
  test_command?: string[] | undefined;
  typecheck_command?: string[] | undefined;
  timeout?: number | undefined;
  /** Build on this tug/ branch: the edits are computed against its tip and the commit extends it. */
  onto?: string | undefined;
}

/** What an operation proposes, computed against the snapshot. */
export interface Proposal {
  patch: PatchSet;
  warnings: WarningJSON[];
  /** Subject after the conventional prefix, e.g. `process_data -> transform_data`. */
  subject: string;
  /** Words for the branch name, e.g. `process_data-to-transform_data`. */
  slug: string;
  /** Places the change may need to touch but tug could not prove it must; left alone and reported. */
  unsure?: UnsureJSON[];
  /** An empty patch is success (`changed: false`), not a refused no-op: the operation is idempotent (organize-imports). */
  nothingToDoIsSuccess?: boolean;
  /** The symbol the operation acts on, by identity, for the commit's record (replay finds it again by this). */
  symbol?: RecordedSymbolJSON;
  /** Versions of the language tools that planned the change (rust-analyzer, Python), for the record. */
  tools?: Record<string, string>;
  /**
   * The plan's own proof, left to the caller when it asked (ChangeBase.checkLater): a TypeScript rename's completeness
   * check. It throws what the plan would have thrown; nothing of the change is referenced (branch, undo point, note,
   * files) before it passed.
   */
  check?: () => Promise<void>;
}

export interface ChangeKind {
  /** Registry name, e.g. `apply-patchset`. */
  operation: string;
  /** Branch and commit-scope word, e.g. `patch` → tug/patch/…, refactor(patch): … */
  scope: string;
  /** Tool name for the operation log (default tug_<operation>). */
  tool?: string;
  /** The caller's arguments for the operation log (default: the options). */
  arguments?: Record<string, unknown>;
  /** Starts slow preparations (a language worker) before the snapshot; not awaited, must not throw. */
  warmUp?: (ws: Workspace) => void;
  /** A plan's step: recorded on the commit so replay keeps the steps together. */
  plan?: { index: number; steps: number };
}

/** What a change is computed against: the snapshot, or the tip of the `onto` branch. */
export interface ChangeBase {
  tree: string;
  /** The `onto` branch, when the change extends one. */
  onto: string | null;
  /**
   * The caller runs Proposal.check itself, beside writing the result's objects: a planner may then answer before its
   * proof has run. Without it, a planner proves its change before it answers.
   */
  checkLater?: boolean;
}

export type Planner = (ws: Workspace, snapshot: Snapshot, base: ChangeBase) => Promise<Proposal>;

export interface Reporter {
  progress?: (message: string) => void;
  /** The caller's cancellation: checked before anything is committed or written. */
  signal?: AbortSignal;
  heartbeat?: (progress: CheckProgress) => void;
}
