// Turns yargs arguments into operation inputs: paths resolved against the caller's directory, JSON argv flags parsed.
import path from 'node:path';
import type { Argv } from 'yargs';
import { TugError } from '../core/errors.js';
import { readInputText } from './input-file.js';
import type { CliIO } from './io.js';
import { LOG_LEVELS } from './logging.js';

export type Args = Record<string, unknown>;

/**
 * Paths on the command line are relative to the caller's directory (which a daemon does not share), or with
 * `-C DIR` to DIR, as with git: positions, --session-dir and --file alike.
 */
export function commonInput(args: Args, io: CliIO) {
  const sessionDir = args['session-dir'];
  const workspace = baseDir(args, io);
  return {
    workspace,
    session_dir: typeof sessionDir === 'string' ? path.resolve(workspace, sessionDir) : undefined,
    no_wait: args['wait'] === false ? true : undefined,
  };
}

export function textFlags(args: Args) {
  const globs = (name: string) => (Array.isArray(args[name]) ? (args[name] as unknown[]).map(String) : undefined);
  return { rename_strings: args['rename-strings'], rename_comments: args['rename-comments'], rust_analyzer: args['rust-analyzer'], include: globs('include'), exclude: globs('exclude'), safety: args['safety'], include_unsure: args['include-unsure'], keep_alias: args['keep-alias'] };
}

/** --include/--exclude, repeatable: which Python files analysis considers (relative to the workspace). */
export function selectionOptions(y: Argv) {
  return y
    .option('safety', { choices: ['strict', 'normal', 'aggressive'] as const, describe: 'Python: strict refuses an ambiguous position; normal takes the name before it (warned); aggressive also renames equal strings and comments (default: config safety_mode, $TUG_SAFETY, strict)' })
    .option('include', { type: 'string', array: true, describe: 'Analyse only files matching this glob (repeatable; default: config include, $TUG_INCLUDE)' })
    .option('exclude', { type: 'string', array: true, describe: 'Leave files matching this glob out of the analysis (repeatable; default: config exclude, $TUG_EXCLUDE)' });
}

export function renameOptions(y: Argv) {
  return selectionOptions(y)
    .option('rename-strings', { type: 'boolean', describe: 'Also rename string literals equal to the old name (each reported)' })
    .option('rename-comments', { type: 'boolean', describe: 'Also rename whole-word mentions in comments (each reported)' })
    .option('rust-analyzer', { type: 'string', describe: 'rust-analyzer binary for .rs targets (default: $TUG_RA_PATH, PATH, tug setup)' })
    .option('include-unsure', { type: 'boolean', describe: 'Also rename occurrences tug cannot prove (listed in unsure, renamed: true)' })
    .option('keep-alias', { type: 'boolean', describe: 'Python: keep the old name as a deprecated alias (old = new), reported as AliasKept' });
}

export function changeOptions(y: Argv) {
  return verifyOptions(y)
    .option('apply', { type: 'boolean', describe: 'Write the verified change into the working tree (all files or none)' })
    .option('commit', { type: 'boolean', describe: 'Fast-forward the current branch to the result (clean tree only)' })
    .option('keep-sandbox', { type: 'boolean', describe: 'Keep the sandbox when verification fails' })
    .option('review', { type: 'boolean', describe: 'Open the review TUI on the result before anything is applied (--apply/--commit then happen only from there: x or m)' })
    .conflicts('apply', 'commit');
}

export function verifyOptions(y: Argv) {
  return y
    .option('verify', { choices: ['none', 'syntax', 'tests', 'typecheck'] as const, describe: 'Checks to run in the sandbox (default: config, else syntax)' })
    .option('snapshot', { type: 'string', describe: 'Fail unless the workspace is still at this snapshot id' })
    .option('python', { type: 'string', describe: 'Python interpreter for verification' })
    .option('test-command', { type: 'string', describe: `Test argv as JSON, e.g. '["{python}","-m","pytest","-x"]'` })
    .option('typecheck-command', { type: 'string', describe: 'Type checker argv as JSON' })
    .option('timeout', { type: 'number', describe: 'Seconds per verification step (default 300)' });
}

export function changeInputOf(args: Args, io: CliIO) {
  const argvJson = (name: string) => {
    const value = args[name];
    if (value === undefined) return undefined;
    return parseArgvJson(String(value), `--${name}`);
  };
  return {
    ...commonInput(args, io),
    verify: args['verify'],
    snapshot: args['snapshot'],
    apply: args['apply'],
    commit: args['commit'],
    keep_sandbox: args['keep-sandbox'],
    python: args['python'],
    test_command: argvJson('test-command'),
    typecheck_command: argvJson('typecheck-command'),
    timeout: args['timeout'],
  };
}

function parseArgvJson(value: string, argument: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((p) => typeof p === 'string')) {
    throw new TugError('InvalidArgument', `${argument} must be a JSON array of strings, e.g. '["{python}","-m","pytest"]'`, {
      details: { argument, reason: 'not a JSON argv array' },
    });
  }
  return parsed as string[];
}

/** The directory relative paths start from: -C DIR, else where tug was started. */
export function baseDir(args: Args, io: CliIO): string {
  return path.resolve(io.cwd, typeof args['workspace'] === 'string' ? args['workspace'] : '.');
}

export function readPatchset(file: string, base: string): unknown {
  const text = readInputText(file, base, 'file');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TugError('InvalidArgument', `patchset ${file} is not valid JSON: ${(error as Error).message}`, { details: { argument: 'file', reason: 'invalid JSON' } });
  }
}

/** yargs reads `--file -` (and `--args -`) as an unknown positional `-`; `--file=-` means the same and parses. */
export function joinDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if ((argv[i] === '--file' || argv[i] === '--args') && argv[i + 1] === '-') {
      out.push(`${argv[i]}=-`);
      i += 1;
    } else out.push(argv[i]!);
  }
  return out;
}

export function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}

/** Options every command takes: where (-C, the session), how to print (--json) and log, and how to wait. */
export function globalOptions(y: Argv) {
  return y
    .option('workspace', { alias: 'C', type: 'string', describe: 'Directory inside the git working tree (default: current directory)', global: true })
    .option('session-dir', { type: 'string', describe: 'Session directory (default: $TUG_SESSION_DIR, else <git-common-dir>/tug)', global: true })
    .option('json', { type: 'boolean', describe: 'Print JSON (the default when stdout is not a terminal)', global: true })
    .option('wait', { type: 'boolean', default: true, describe: 'Wait up to 30 s for another tug (--no-wait fails at once)', global: true })
    .option('verbose', { alias: 'v', type: 'boolean', describe: 'Log debug lines on stderr too (the input, how long it took)', global: true })
    .option('quiet', { alias: 'q', type: 'boolean', describe: 'Log only errors on stderr (no progress)', global: true })
    .option('log-level', { choices: LOG_LEVELS, describe: 'Lowest level logged on stderr (default: info on a terminal, else warn)', global: true })
    .option('log-format', { choices: ['text', 'json'] as const, describe: 'Log lines as text or as one JSON object each', global: true })
    .conflicts('verbose', 'quiet')
    .option('session-name', { type: 'string', describe: 'Use the named session <session dir>/sessions/NAME (parallel experiments keep apart)', global: true })
    .option('fresh', { type: 'boolean', describe: "Start the session fresh: stop its workers, drop its caches and sandboxes (undo points and the log stay)", global: true });
}
