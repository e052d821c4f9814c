// Turns yargs' parse failures into InvalidArgument errors that name what was typed and the closest valid command or option.
import { TugError } from '../core/errors.js';
import { didYouMean, editDistance } from '../core/did-you-mean.js';

/** yargs' message when no command is named; on a terminal the help is printed instead (HelpInstead). */
export const NO_COMMAND = 'name a command; see tug --help';
export const TOP_COMMANDS = ['apply', 'doctor', 'snapshot', 'analyze-impact', 'run', 'rename', 'apply-patchset', 'verify', 'undo', 'session', 'clean', 'toolchain', 'review', 'tool', 'log', 'show', 'mcp', 'daemon', 'completion', 'help', 'assists'];

export class HelpInstead extends Error {}

/** What yargs hands `.fail`: the instance of the command being parsed, whose options and subcommands we can list. */
export interface FailingParser {
  getOptions?: () => { key?: Record<string, unknown> };
  getInternalMethods?: () => { getCommandInstance?: () => { getCommands?: () => string[] } };
}

export function usageError(message: string, argv: readonly string[], parser: FailingParser | undefined, topCommands: readonly string[]): TugError {
  const text = explain(message, argv, parser, topCommands);
  return new TugError('InvalidArgument', text, { details: { argument: 'argv', reason: text } });
}

function explain(message: string, argv: readonly string[], parser: FailingParser | undefined, topCommands: readonly string[]): string {
  const recommended = /^Did you mean (.+)\?$/.exec(message);
  if (recommended) {
    // yargs does not say which word it could not place; it is the one closest to its recommendation.
    const words = argv.filter((a) => !a.startsWith('-') && a !== recommended[1]);
    const typed = words.sort((a, b) => editDistance(a, recommended[1]!) - editDistance(b, recommended[1]!))[0] ?? '';
    return `unknown command ${typed}; did you mean ${recommended[1]}? (see tug --help)`;
  }
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  // yargs also lists the camelCase twin of each unknown --kebab-case flag.
  if (unknown) return unknown[1]!.split(', ').filter((name, _, all) => !/[A-Z]/.test(name) || !all.includes(kebab(name))).map((name) => unknownOne(name, argv, parser, topCommands)).join('; ');
  const choice = /Argument: ([\w-]+), Given: "([^"]*)", Choices: (.+)$/.exec(message);
  if (choice) {
    const choices = [...choice[3]!.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
    const guess = didYouMean(choice[2]!, choices);
    return `invalid ${choice[1]} "${choice[2]}"${guess ? `; did you mean ${guess}?` : ''} (choose from ${choices.join(', ')})`;
  }
  return message;
}

function unknownOne(name: string, argv: readonly string[], parser: FailingParser | undefined, topCommands: readonly string[]): string {
  const asFlag = argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`) || a === `-${name}` || a === `--no-${name}`);
  if (asFlag) {
    const flags = Object.keys(parser?.getOptions?.().key ?? {}).filter((k) => k.length > 1 && k !== '$0' && !/[A-Z]/.test(k));
    const guess = didYouMean(name, flags);
    return `unknown option --${name}${guess ? `; did you mean --${guess}?` : ''}`;
  }
  const subcommands = parser?.getInternalMethods?.().getCommandInstance?.().getCommands?.() ?? [];
  const guess = didYouMean(name, subcommands.length > 0 ? subcommands : topCommands);
  return `unexpected argument ${name}${guess ? `; did you mean ${guess}?` : ''}`;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The operation named on the command line, or UnsupportedOperation listing what tug supports (closest first). */
export function supportedOperation<T extends string>(value: unknown, command: string, supported: readonly T[]): T {
  const name = String(value).replace(/_/g, '-');
  const known = supported.find((o) => o === name);
  if (known) return known;
  const guess = didYouMean(name, supported);
  throw new TugError('UnsupportedOperation', `${command} does not support ${String(value)}${guess ? `; did you mean ${guess}?` : ''} (supported: ${supported.join(', ')})`, {
    details: { operation: String(value), reason: 'unknown operation', supported: [...supported] },
  });
}
