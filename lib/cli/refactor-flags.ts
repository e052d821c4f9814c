// The command line of the refactors: `tug run NAME`, `tug analyze-impact NAME` and each shorthand (`tug inline`) take
// the flags the operation's CLI form declares, and a flag that belongs to another refactor is refused, never ignored.
import type { Argv } from 'yargs';
import { TugError } from '../core/errors.js';
import type { CliFlag, Operation } from '../ops/operation.js';
import { operations } from '../ops/registry.js';
import type { Args } from './args.js';

/** rename-symbol's own flags (its command line predates the CLI forms and lives in args.ts). */
const RENAME_FLAGS = ['at', 'to', 'rename-strings', 'rename-comments', 'include-unsure', 'keep-alias', 'safety', 'include', 'exclude', 'rust-analyzer'];

/** Refactors with a CLI form, in registry order. */
export function refactors(): Operation[] {
  return operations.filter((op) => op.cli !== undefined);
}

/** What `tug run` and `tug analyze-impact` accept. */
export function refactorNames(): string[] {
  return ['rename-symbol', ...refactors().map((op) => op.name)];
}

/** Every refactor flag once, described with the refactors that take it; `skip` names flags the command already has. */
export function addRefactorFlags<T>(y: Argv<T>, skip: readonly string[]): Argv<T> {
  const users = new Map<string, { flag: CliFlag; ops: string[] }>();
  for (const op of refactors()) {
    for (const [name, flag] of Object.entries(op.cli!.flags)) {
      const entry = users.get(name) ?? { flag, ops: [] };
      entry.ops.push(op.name);
      users.set(name, entry);
    }
  }
  let out = y;
  for (const [name, { flag, ops }] of users) {
    if (skip.includes(name)) continue;
    out = out.option(name, { type: flag.type, array: flag.array, describe: `${flag.describe} (${ops.join(', ')})` });
  }
  return out;
}

/** The flags of one refactor, for its shorthand command: required ones demanded by yargs. */
export function addOwnFlags<T>(y: Argv<T>, op: Operation): Argv<T> {
  let out = y;
  for (const [name, flag] of Object.entries(op.cli!.flags)) {
    out = out.option(name, { type: flag.type, array: flag.array, describe: flag.describe, demandOption: flag.required ?? false });
  }
  return out;
}

/** Refuses a flag given for a refactor that does not take it, and a missing required flag, naming both. */
export function checkRefactorFlags(name: string, args: Args): void {
  const op = refactors().find((candidate) => candidate.name === name);
  const own = op ? Object.keys(op.cli!.flags) : RENAME_FLAGS;
  const all = new Set([...RENAME_FLAGS, ...refactors().flatMap((candidate) => Object.keys(candidate.cli!.flags))]);
  const foreign = [...all].filter((flag) => !own.includes(flag) && args[flag] !== undefined);
  if (foreign.length > 0) {
    throw new TugError('InvalidArgument', `--${foreign[0]} does not apply to ${name} (its flags: ${own.map((f) => `--${f}`).join(', ')})`, {
      details: { argument: foreign[0], reason: `not a flag of ${name}`, accepted: own },
    });
  }
  const required = op ? Object.entries(op.cli!.flags).filter(([, flag]) => flag.required).map(([flag]) => flag) : ['at', 'to'];
  const missing = required.find((flag) => args[flag] === undefined);
  if (missing) throw new TugError('InvalidArgument', `${name} needs --${missing}`, { details: { argument: missing, reason: 'required' } });
}

/** The refactor's own input fields from the flags. */
export function refactorFields(name: string, args: Args): Record<string, unknown> {
  return refactors().find((op) => op.name === name)!.cli!.fields(args);
}
