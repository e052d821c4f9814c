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

/** The flags of one refactor, for its shorthand command (a required one may come as a positional: checkRefactorFlags). */
export function addOwnFlags<T>(y: Argv<T>, op: Operation): Argv<T> {
  let out = y;
  for (const [name, flag] of Object.entries(op.cli!.flags)) {
    out = out.option(name, { type: flag.type, array: flag.array, describe: `${flag.describe}${flag.required ? ' (required, as the flag or its positional)' : ''}` });
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
  if (missing) {
    const { target, value } = positionalFlags(name);
    const word = missing === target ? 'TARGET' : missing === value ? 'VALUE' : undefined;
    throw new TugError('InvalidArgument', `${name} needs --${missing}${word ? ` (or ${missing.toUpperCase()} as its ${word === 'TARGET' ? 'first' : 'second'} argument)` : ''}`, {
      details: { argument: missing, reason: 'required' },
    });
  }
}

/**
 * The positional shorthand, one rule for every refactor: `tug REFACTOR [TARGET] [VALUE]`. TARGET stands for the
 * place flag the refactor declares (--at, --range or --file; a repeatable --file takes several), VALUE for the one
 * other thing it needs: its first required flag, else --name (rename's --to, move's --destination, extract's --name).
 * A new refactor gets its positionals from its flags, so the shape cannot drift.
 */
export function positionalFlags(name: string): { target?: string; value?: string; many: boolean } {
  if (name === 'rename-symbol') return { target: 'at', value: 'to', many: false };
  const op = refactors().find((candidate) => candidate.name === name);
  if (!op) return { many: false };
  const flags = op.cli!.flags;
  const target = ['at', 'range', 'file'].find((flag) => flags[flag] !== undefined);
  if (target && flags[target]!.array) return { target, many: true };
  const value = Object.keys(flags).find((flag) => flag !== target && flags[flag]!.required) ?? (flags['name'] ? 'name' : undefined);
  return { target, value, many: false };
}

/** The words `tug REFACTOR` shows for its positionals: the flag names they stand for, in capitals. */
export function positionalWords(name: string): string {
  const { target, value, many } = positionalFlags(name);
  if (!target) return '';
  return many ? `[${target.toUpperCase()}..]` : `[${target.toUpperCase()}]${value ? ` [${value.toUpperCase()}]` : ''}`;
}

/**
 * Moves the positionals into the flags they stand for (`tug move A B` = `tug move --at A --destination B`); the key
 * is the flag name in capitals (shorthand commands) or TARGET/VALUE (`tug run NAME`). The same thing given both ways
 * with different values is refused: tug does not pick one.
 */
export function takePositionals(name: string, args: Args): Args {
  const { target, value, many } = positionalFlags(name);
  const out: Args = { ...args };
  const take = (flag: string | undefined, given: unknown, word: string) => {
    if (given === undefined || (Array.isArray(given) && given.length === 0)) return;
    if (flag === undefined) {
      throw new TugError('InvalidArgument', `${name} takes no ${word} argument (${String(given)}); use its flags, see tug run ${name} -h`, {
        details: { argument: word, reason: `not an argument of ${name}` },
      });
    }
    if (many) {
      out[flag] = [...(Array.isArray(out[flag]) ? (out[flag] as unknown[]) : []), ...(Array.isArray(given) ? given : [given])].map(String);
      return;
    }
    const text = String(given);
    if (out[flag] !== undefined && String(out[flag]) !== text) {
      const order = [target, value].filter((f) => f !== undefined).map((f) => f!.toUpperCase()).join(' ');
      throw new TugError('InvalidArgument', `${name}: --${flag} given twice, as the argument ${text} and as --${flag} ${String(out[flag])}; give it once (the arguments are ${order}, in that order)`, {
        details: { argument: flag, reason: 'given twice' },
      });
    }
    out[flag] = text;
  };
  take(target, args[target?.toUpperCase() ?? ''] ?? args['TARGET'], 'TARGET');
  // A refactor that takes several targets (organize-imports) reads `tug run NAME A B` as two of them.
  take(many ? target : value, (value ? args[value.toUpperCase()] : undefined) ?? args['VALUE'], 'VALUE');
  return out;
}

/** The refactor's own input fields from the flags. */
export function refactorFields(name: string, args: Args): Record<string, unknown> {
  return refactors().find((op) => op.name === name)!.cli!.fields(args);
}
