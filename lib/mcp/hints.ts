// Hints for agents: the same advice as the CLI's, naming tool parameters and resources instead of command-line flags.
import { ERROR_CODES, type ErrorCode } from '../core/errors.js';

/** Codes whose CLI hint names a flag or a command; the rest read the same for agents. */
const AGENT_HINTS: Partial<Record<ErrorCode, string>> = {
  SymbolNotFound: 'Point file, line and column at an identifier (1-based; the column counts UTF-8 bytes); workspace://symbols lists the definitions.',
  LogEntryNotFound: 'Read workspace://log for the entries; ids may be shortened to a unique prefix.',
  UndoTokenNotFound: 'Use the undo_token a change returned; workspace://log lists every token.',
  UndoConflict: 'Another change touched the same lines of details.conflicting_files; resolve them by hand (for a merged change, git revert of details.commit keeps the other change). force would overwrite that change: use it only when the user wants it gone.',
  DirtyWorkingTree: 'commit: true and merging need a clean tree; pass apply: true instead, or ask the user to commit or stash first.',
  SessionLocked: 'Wait for it, or retry; no_wait: true fails at once instead of waiting.',
  MergeConflict: 'Nothing was changed; the user has to merge the branch by hand and resolve the conflicts.',
  SessionCorrupt: 'Call tug_clean to start a fresh session.',
  InvalidArgument: "details.issues names each bad parameter and details.accepted lists the tool's parameters; tools/list has every inputSchema.",
  UnsupportedOperation: "tools/list names the supported tools; each tool's description says which languages and files it handles.",
  NotAGitRepository: 'Start the server inside a git working tree, or pass workspace_path naming a directory inside it.',
  NotATerminal: 'Use the tools instead: tug_show or workspace://last_patch to read a change, apply: true to take it, tug_undo with its undo_token to revert it.',
  WorkspaceNotFound: 'Check workspace_path: a directory inside the repository the server was started in.',
  PythonNotFound: 'Pass python (an interpreter path) or set TUG_PYTHON where the server runs.',
  RustAnalyzerNotFound: 'Call tug_toolchain with language rust and action setup, or pass rust_analyzer (a binary path).',
  LibCSTNotAvailable: 'Install libcst into that interpreter, or call tug_toolchain with language python and action setup.',
  IndexingTimeout: 'Large workspaces take a while the first time; raise TUG_RA_INDEX_TIMEOUT_MS where the server runs, then call again.',
  RecoveryConflict: 'tug left the files in details.conflicting_files as they are and kept its journal; its intended content is saved under details.saved. Ask the user to make each file match either version, or call tug_clean to drop the interrupted change.',
  DaemonInterrupted: 'It was not run again, since it may have written files. details.journal says what the daemon left (none, prepare, commit) and details.files which files; the next call that takes the session lock (tug_verify with mode none) finishes or rolls back that write; then call again if the change is still needed.',
  TrustRefused: 'Only a person can trust a repository: ask the user to trust it from their own terminal if they want its tests run by default. details.reason says which rule applied.',
  UnsupportedInterpreter: 'tug runs its analysis with Python details.needed or newer; details.found is what this interpreter is. Pass python naming a newer interpreter, or call tug_toolchain with language python and action setup.',
  SessionNotWritable: 'Ask the user to make details.path writable (permissions, a read-only mount or a full disk); the server cannot move its session dir.',
  OutsideSparseCheckout: 'Ask the user to widen the sparse checkout to those files, or call again without apply: true and merge the tug/ branch.',
  UnsupportedByAdapter: 'details.reason says why; details.offered, when present, lists what the language server offers there; call again with another range or position.',
  InternalError: 'This is a bug in tug; please report it with the tool name and arguments.',
  UnresolvedSymbol: 'tug cannot tell what the receiver is (details.receiver); point file, line and column at the definition, or annotate the receiver.',
};

export function agentHint(code: ErrorCode): string {
  return AGENT_HINTS[code] ?? ERROR_CODES[code].hint;
}
