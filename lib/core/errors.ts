// One error type for every failure tug reports, so every front door renders the same code, exit status and hint.

/** Every error code tug can emit. The set is closed: adding one is a contract change. */
export const ERROR_CODES = {
  // Resolution (exit 3): the thing asked for is not there.
  SymbolNotFound: { exit: 3, title: 'No symbol at that position', hint: 'Point --at at an identifier (1-based line and column).' },
  AmbiguousSymbol: { exit: 3, title: 'Several symbols match', hint: 'Pick one of details.candidates and pass its exact position.' },
  FileNotFound: { exit: 3, title: 'File not found', hint: 'Paths are relative to the workspace and must exist in the snapshot.' },
  InvalidPosition: { exit: 3, title: 'Position out of range', hint: 'Lines and columns are 1-based; columns count UTF-8 bytes.' },
  UnsupportedInMacro: { exit: 3, title: 'The symbol comes from a macro', hint: 'rust-analyzer cannot rename what a macro generates; rename the macro input by hand (details.macro_location).' },
  TextNotFound: { exit: 3, title: 'The text to replace is not in the file', hint: 'Read the file again and copy old_text exactly (whitespace and line breaks included); details.similar lists near misses.' },
  AmbiguousMatch: { exit: 3, title: 'The text to replace occurs more than once', hint: 'Add surrounding lines to old_text until it matches once; details.matches lists every place it occurs.' },
  LogEntryNotFound: { exit: 3, title: 'No such operation log entry', hint: 'List entries with `tug log`; ids may be shortened to a unique prefix.' },
  InvalidSelection: { exit: 3, title: 'The range is not one expression or whole statements', hint: 'details.reason says what the range must hold; select exactly one expression (whitespace around it is ignored).' },
  UnresolvedSymbol: { exit: 3, title: 'The name at that position cannot be resolved', hint: 'tug cannot tell what the receiver is (details.receiver); point --at at the definition, or annotate the receiver.' },
  UndoTokenNotFound: { exit: 3, title: 'Unknown undo token', hint: 'List tokens with `git for-each-ref refs/tug/undo`.' },
  // Apply (exit 4): the edit could not be applied safely, nothing was written.
  SnapshotMismatch: { exit: 4, title: 'The workspace changed', hint: 'Re-run the analysis on the current files, or pass the new snapshot id.' },
  AnchorMismatch: { exit: 4, title: 'An edit does not match the file', hint: 'The old_text of the edit is not at its span; recompute the edit.' },
  ConflictingEdits: { exit: 4, title: 'Edits overlap', hint: 'Merge or drop overlapping edits; each byte may be replaced once.' },
  FileExists: { exit: 4, title: 'The file already exists', hint: 'Use write_file or edit_file to change an existing file, or pick another path.' },
  WriteError: { exit: 4, title: 'Could not write a file', hint: 'Check permissions and disk space; nothing was written.' },
  UndoConflict: { exit: 4, title: 'Files changed since the operation', hint: 'Another change touched the lines the operation changed in details.conflicting_files. Resolve them by hand; for a change already committed or merged, `git revert <details.commit>` undoes only its own lines.' },
  DirtyWorkingTree: { exit: 4, title: 'The working tree has changes', hint: '--commit and merging need a clean tree; use --apply (x in tug review), or commit or stash first.' },
  RefUpdateConflict: { exit: 4, title: 'A ref moved underneath tug', hint: 'Another process updated the branch; re-run.' },
  NameConflict: { exit: 4, title: 'The new name collides with another binding', hint: 'Pick another name; details.conflicts lists where it would be captured or shadowed.' },
  SourceSyntaxError: { exit: 4, title: 'A source file does not parse', hint: 'Fix the syntax error at details.file:details.line first; tug never edits code it cannot parse.' },
  SessionLocked: { exit: 4, title: 'Another tug is running here', hint: 'Wait for it, or retry; --no-wait fails at once instead of waiting.' },
  ReplayConflict: { exit: 4, title: 'A text change of the branch conflicts with the new base', hint: 'A patchset or file edit does not merge with what changed since (details.files); nothing was made. Merge the branch by hand, or make the edit again on the new base.' },
  MergeConflict: { exit: 4, title: 'The branch does not merge cleanly', hint: 'Nothing was changed; merge it by hand with `git merge <branch>` and resolve the conflicts.' },
  Cancelled: { exit: 4, title: 'The caller cancelled the operation', hint: 'Nothing was committed or written; the lock and the sandbox were released. Call again to run it.' },
  SessionCorrupt: { exit: 4, title: 'Session data is unreadable', hint: 'Run `tug clean` to start a fresh session.' },
  OutsideSparseCheckout: { exit: 4, title: 'The change touches files outside the sparse checkout', hint: 'Widen it (`git sparse-checkout add <dir>`) and re-run, or run without --apply and merge the tug/ branch.' },
  GitLocked: { exit: 4, title: 'A git lock file is in the way', hint: 'tug never deletes a git lock it did not create. Check whether a git process still runs (`fuser <details.lock_file>` or `ps -ef | grep git`); if none does, the lock is left from a crash: remove it yourself and re-run.' },
  ImportCycle: { exit: 4, title: 'The move would make modules import each other', hint: 'details.modules would import each other at import time (details.names); move those names too, or move the symbol elsewhere.' },
  UnsafeRefactor: { exit: 4, title: 'The refactor would change what the code does', hint: 'details.reason says why and details.line/col where; choose another range or position, or make this change by hand.' },
  RecoveryConflict: { exit: 4, title: 'An interrupted change meets your edits', hint: 'tug left the files in details.conflicting_files as they are and kept its journal; its intended content is saved under details.saved. Make each file match either version to let tug finish, or run `tug clean` to drop the interrupted change.' },
  DaemonInterrupted: { exit: 4, title: 'The daemon died in the middle of the command', hint: 'It was not run again, since it may have written files. details.journal says what the daemon left (none, prepare, commit) and details.files which files; the next command that takes the session lock (`tug verify --verify none`) finishes or rolls back an interrupted write; then run the command again if it is still needed.' },
  // Verification (exit 5): the change was made in a sandbox and failed its checks.
  VerificationFailed: { exit: 5, title: 'Verification failed', hint: 'Read details.verification (and details.unsure: places the analysis could not prove; details.warnings: what the analysis noticed); nothing was committed or written.' },
  IncompleteRename: {
    exit: 5,
    title: 'The rename would leave references behind',
    hint: 'details.left lists each place that resolved to the symbol (or to something) before and would not after; nothing was committed or written. Rename those by hand or report the case.',
  },
  VerificationNotIsolated: {
    exit: 5,
    title: 'Verification would not test the sandbox',
    hint: 'details.package imports from details.path (an editable install, a stale copy or a path setting pointing at your checkout), or a Cargo path names your checkout; nothing was run, committed or written. Let the project import from the checkout it runs in (uninstall the copy, drop the path), then re-run.',
  },
  // Usage and environment (exit 2).
  InvalidArgument: { exit: 2, title: 'Invalid argument', hint: 'See `tug <command> --help`.' },
  UnsupportedFile: { exit: 2, title: 'File cannot be edited as text', hint: 'tug edits UTF-8 text files only (no binaries, symlinks or submodules).' },
  UnsupportedOperation: { exit: 2, title: 'Operation not supported here', hint: 'See `tug --help` for the supported operations.' },
  NotAGitRepository: { exit: 2, title: 'Not inside a git repository', hint: 'Run tug inside a git working tree, or pass --workspace.' },
  NotATerminal: {
    exit: 2,
    title: 'Interactive review needs a terminal',
    hint: 'tug review reads keys and draws on a TTY. Without one, use the JSON commands: `tug run … --json` for the change, `git show <branch>` to read it, `git merge <branch>` or `--apply` to take it, `tug undo <token>` to revert.',
  },
  WorkspaceNotFound: { exit: 2, title: 'Workspace not found', hint: 'Check --workspace.' },
  PythonNotFound: { exit: 2, title: 'No Python interpreter', hint: 'Pass --python PATH or set TUG_PYTHON.' },
  RustAnalyzerNotFound: { exit: 2, title: 'No working rust-analyzer', hint: 'Run `tug toolchain rust setup`, or pass --rust-analyzer PATH / set TUG_RA_PATH.' },
  NotCargoProject: { exit: 2, title: 'Not inside a Cargo project', hint: 'Rust renames need a Cargo.toml above the file.' },
  UnsafePath: { exit: 2, title: 'A path is not safe to use', hint: 'details.path and details.reason say why: a symlink, a .git component, or a directory another user owns or can write. Fix it by hand; tug wrote nothing there.' },
  LimitExceeded: { exit: 2, title: 'A size or time limit was reached', hint: 'details.limit names it; narrow the request (a path, an include glob, a smaller file or range) and retry.' },
  PathOutsideWorkspace: { exit: 2, title: 'The path is outside the served repository', hint: 'An MCP server (or a confined tool host) serves only the repository it was started in; start another server in the other repository.' },
  LibCSTNotAvailable: { exit: 2, title: 'LibCST is not installed for this Python', hint: 'Install libcst into that interpreter, or run `tug toolchain python setup`.' },
  SessionNotWritable: { exit: 2, title: 'The session dir cannot be written', hint: 'Make details.path writable (permissions, a read-only mount or a full disk), or point tug at another directory with --session-dir.' },
  InvalidConfig: { exit: 2, title: 'A configuration file or TUG_* variable is invalid', hint: 'details.source and details.key say which setting (details.reason why); fix it there and re-run.' },
  TrustRefused: { exit: 2, title: 'Only a person can trust a repository', hint: 'Run `tug trust` yourself in a terminal, or `tug trust --confirm` from a script you run; never from inside a tug sandbox, an MCP server or an agent\'s command. details.reason says which applied.' },
  UnsupportedInterpreter: { exit: 2, title: 'tug cannot use this Python', hint: 'tug runs its analysis with Python details.needed or newer; details.found is what this interpreter is. Pass --python PATH (or set TUG_PYTHON) naming a newer one, or run `tug toolchain python setup --python PATH`.' },
  // Internal (exit 10): a bug in tug.
  WorkerCrashed: { exit: 10, title: 'The Python worker died', hint: 'Rerun; details.stderr has what it printed. tug restarts it on the next call.' },
  WorkerTimeout: { exit: 10, title: 'The Python worker did not answer in time', hint: 'Rerun with a longer timeout; the worker was restarted.' },
  RustAnalyzerCrashed: { exit: 10, title: 'rust-analyzer died', hint: 'Rerun; details.stderr has what it printed. tug starts a new one on the next call.' },
  RustAnalyzerTimeout: { exit: 10, title: 'rust-analyzer did not answer in time', hint: 'Rerun, or raise TUG_RA_TIMEOUT_MS; the server was restarted.' },
  IndexingTimeout: { exit: 10, title: 'rust-analyzer did not finish indexing in time', hint: 'Large workspaces take a while the first time; raise TUG_RA_INDEX_TIMEOUT_MS or keep one warm with `tug daemon start`.' },
  InternalError: { exit: 10, title: 'Internal error', hint: 'This is a bug in tug; please report it with the command line.' },
  UnsupportedByAdapter: { exit: 2, title: 'The language server offers no such refactoring here', hint: 'details.reason says why; details.offered, when present, lists what the language server offers there; adjust --range/--at.' },
  DiskFull: { exit: 4, title: 'The disk is full', hint: 'details.reason says which (ENOSPC: no space, EDQUOT: over quota) and details.path or details.command where; nothing of yours was changed (an interrupted write is finished or rolled back by the next call). Free some space and re-run.' },
  ProviderContractViolation: { exit: 10, title: "A host's tool broke its own output schema", hint: 'details.provider names the tool provider and details.tool its tool, whose result its own output schema refuses (details.issues); this is a bug in that provider, not in tug: report it there.' },
} as const satisfies Record<string, { exit: number; title: string; hint: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const EXIT = { ok: 0, usage: 2, resolution: 3, apply: 4, verification: 5, internal: 10 } as const;

export interface TugErrorJSON {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  location?: { file: string; line: number; col: number };
}

export class TugError extends Error {
  override readonly name = 'TugError';
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly location: TugErrorJSON['location'];
  /** The snapshot the failing operation was working on, when it got that far. */
  snapshotId: string | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; location?: TugErrorJSON['location']; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.location = options.location;
  }

  get exitCode(): number {
    return ERROR_CODES[this.code].exit;
  }

  get hint(): string {
    return ERROR_CODES[this.code].hint;
  }

  toJSON(): TugErrorJSON {
    const out: TugErrorJSON = { code: this.code, message: this.message };
    if (this.details !== undefined) out.details = this.details;
    if (this.location !== undefined) out.location = this.location;
    return out;
  }
}

/** Turns anything thrown into a TugError; unknown throwables are bugs. */
export function asTugError(error: unknown): TugError {
  if (error instanceof TugError) return error;
  const full = diskFullError(error);
  if (full) return full;
  const message = error instanceof Error ? error.message : String(error);
  const details: Record<string, unknown> = {};
  if (process.env['TUG_DEBUG'] && error instanceof Error && error.stack) details['backtrace'] = error.stack;
  return new TugError('InternalError', message, { details, cause: error });
}

/** errno codes and git's messages for them that mean the file system is out of space or over quota. */
const DISK_FULL: ReadonlyArray<[string, RegExp]> = [
  ['ENOSPC', /No space left on device/i],
  ['EDQUOT', /Disk quota exceeded/i],
];

/**
 * DiskFull when `error` (an errno error, or the stderr of a git or other process) says the disk is full, else undefined:
 * a full disk used to surface as InternalError (git could not write an object) or as a misleading RefUpdateConflict.
 */
export function diskFullError(error: unknown, where: { path?: string; command?: string } = {}): TugError | undefined {
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  const text = typeof error === 'string' ? error : '';
  const reason = DISK_FULL.find(([code, pattern]) => errno === code || pattern.test(text))?.[0];
  if (!reason) return undefined;
  const detail = (typeof error === 'string' ? error.trim().split('\n').pop() : (error as Error).message) ?? reason;
  return new TugError('DiskFull', `the disk is full (${reason}): ${detail}`, {
    details: { reason, ...where, ...((error as NodeJS.ErrnoException).path ? { path: (error as NodeJS.ErrnoException).path } : {}) },
    ...(typeof error === 'string' ? {} : { cause: error }),
  });
}
