// Turns yargs arguments into operation inputs: paths resolved against the caller's directory, JSON argv flags parsed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import { TugError } from '../core/errors.js';
import type { CliIO } from './io.js';

export type Args = Record<string, unknown>;

/** Paths on the command line are relative to the caller's directory (which a daemon does not share). */
export function commonInput(args: Args, io: CliIO) {
  const sessionDir = args['session-dir'];
  return {
    workspace: path.resolve(io.cwd, typeof args['workspace'] === 'string' ? args['workspace'] : '.'),
    session_dir: typeof sessionDir === 'string' ? path.resolve(io.cwd, sessionDir) : undefined,
    no_wait: args['wait'] === false ? true : undefined,
  };
}

export function textFlags(args: Args) {
  return { rename_strings: args['rename-strings'], rename_comments: args['rename-comments'], rust_analyzer: args['rust-analyzer'], include_unsure: args['include-unsure'] };
}

export function renameOptions(y: Argv) {
  return y
    .option('rename-strings', { type: 'boolean', describe: 'Also rename string literals equal to the old name (each reported)' })
    .option('rename-comments', { type: 'boolean', describe: 'Also rename whole-word mentions in comments (each reported)' })
    .option('rust-analyzer', { type: 'string', describe: 'rust-analyzer binary for .rs targets (default: $TUG_RA_PATH, PATH, tug setup)' })
    .option('include-unsure', { type: 'boolean', describe: 'Also rename occurrences tug cannot prove (listed in unsure, renamed: true)' });
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

export function readPatchset(file: string, io: CliIO): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : path.resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new TugError('FileNotFound', `cannot read patchset ${file}`, { details: { path: file, reason: String(error) } });
  }
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
