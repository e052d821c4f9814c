// The refactor commands in one place so they all have one shape: `tug run NAME`, `tug analyze-impact NAME` and each
// shorthand (`tug rename`, `tug move`, …) take the same flags, and the same positionals (TARGET, VALUE) standing for them.
import type { Argv } from 'yargs';
import { positionFromAt } from '../ops/operation.js';
import type { Operation } from '../ops/operation.js';
import { changeOptions, renameOptions, textFlags, type Args } from './args.js';
import { addOwnFlags, addRefactorFlags, checkRefactorFlags, positionalFlags, positionalWords, refactorFields, refactorNames, refactors, takePositionals } from './refactor-flags.js';
import { supportedOperation } from './usage-errors.js';
import { TugError } from '../core/errors.js';

type Handler = (args: Args) => Promise<void>;
export type RunCommand = (name: string, toInput: (args: Args) => unknown | Promise<unknown>) => Handler;
type Inputs = { common: (args: Args) => Record<string, unknown>; changeInput: (args: Args) => Record<string, unknown>; cwd: string };

const TARGET_HELP = 'Same as the flag it stands for: --at, --range or --file (see the refactor\'s own -h)';
const VALUE_HELP = 'Same as the refactor\'s other required flag: --to, --destination, --name, --params';

/** rename-symbol's --at and --to (its other flags come from renameOptions). */
function renameTargetFlags<T>(y: Argv<T>): Argv<T> {
  return y.option('at', { type: 'string', describe: 'FILE:LINE:COL of the symbol (1-based; columns count UTF-8 bytes)' }).option('to', { type: 'string', describe: 'The new name' });
}

/** The input fields of one refactor from its (positionals-merged) flags; refuses flags of other refactors. */
export function refactorInput(name: string, rawArgs: Args): Record<string, unknown> {
  const args = takePositionals(name, rawArgs);
  checkRefactorFlags(name, args);
  if (name !== 'rename-symbol') return refactorFields(name, args);
  return { ...positionFromAt(String(args['at'])), new_name: args['to'], ...textFlags(args) };
}

export function addRefactorCommands<T>(cli: Argv<T>, run: RunCommand, inputs: Inputs): Argv<T> {
  const targetValue = <U>(y: Argv<U>) =>
    y.positional('TARGET', { type: 'string', describe: TARGET_HELP }).positional('VALUE', { type: 'string', describe: VALUE_HELP });
  return cli
    .command(
      'analyze-impact [operation] [TARGET] [VALUE]',
      'Show what a refactor would touch, without changing anything',
      (y) =>
        addRefactorFlags(
          renameTargetFlags(targetValue(y.positional('operation', { type: 'string', describe: `The refactor to analyse: ${refactorNames().join(', ')}` })))
            .option('python', { type: 'string', describe: 'Python interpreter' })
            .option('rename-strings', { type: 'boolean', describe: 'Also rename string literals equal to the old name' })
            .option('rename-comments', { type: 'boolean', describe: 'Also rename whole-word mentions in comments' })
            .option('include-unsure', { type: 'boolean', describe: 'Count occurrences tug cannot prove as edits too' })
            .option('keep-alias', { type: 'boolean', describe: 'Python: count the deprecated alias of the old name as edits too' })
            .option('rust-analyzer', { type: 'string', describe: 'rust-analyzer binary for .rs targets' })
            .option('safety', { choices: ['strict', 'normal', 'aggressive'] as const, describe: 'Python: how an ambiguous position and strings/comments are treated (see tug rename -h)' })
            .option('include', { type: 'string', array: true, describe: 'Analyse only files matching this glob (repeatable)' })
            .option('exclude', { type: 'string', array: true, describe: 'Leave files matching this glob out (repeatable)' })
            .option('plan', { type: 'string', describe: 'Preview every step of a plan file (JSON {"steps": [...]}, - for stdin) instead of one refactor' }),
          ['at', 'rust-analyzer'],
        )
          .example('tug analyze-impact rename-symbol --at src/app.py:12:5 --to transform_data', '')
          .example('tug analyze-impact rename-symbol src/app.py:12:5 transform_data', '')
          .example('tug analyze-impact extract-variable --range src/lib.rs:4:13-4:30 --name total', '')
          .example('tug analyze-impact --plan refactor-plan.json', ''),
      (args: Args) => {
        if (planGiven(args)) return run('analyze-impact', async (a) => ({ ...inputs.common(a), python: a['python'], steps: await planSteps(a, inputs.cwd) }))(args);
        const operation = supportedOperation(named(args, 'analyze-impact'), 'analyze-impact', refactorNames());
        const fields = refactorInput(operation, args);
        return run('analyze-impact', (a) => ({ ...inputs.common(a), operation: operation.replace(/-/g, '_'), ...fields, python: a['python'] }))(args);
      },
    )
    .command(
      'run [operation] [TARGET] [VALUE]',
      'Run a refactor: verify it in a sandbox and commit it on a tug/ branch',
      (y) =>
        changeOptions(
          addRefactorFlags(renameTargetFlags(renameOptions(targetValue(y.positional('operation', { type: 'string', describe: `The refactor to run: ${refactorNames().join(', ')}` })))), [
            'at',
            'rust-analyzer',
          ]),
        )
          .option('plan', { type: 'string', describe: 'Run the steps of a plan file (JSON {"steps": [{"operation": ..., fields}]}, - for stdin) as one change' })
          .option('verify-each', { type: 'boolean', describe: 'With --plan: verify after every step, not only once at the end' })
          .option('squash', { type: 'boolean', describe: 'With --plan: one commit for the whole plan instead of one per step' })
          .example('tug run rename-symbol --at src/app.py:12:5 --to transform_data --verify tests --apply', '')
          .example('tug run move-symbol src/shop/pricing.py:34:5 shop.discounts', '')
          .example('tug run extract-variable --range src/lib.rs:4:13-4:30 --name total --verify tests', '')
          .example('tug run --plan refactor-plan.json --verify tests', ''),
      (args: Args) => {
        if (planGiven(args)) {
          return run('run-plan', async (a) => {
            const { review: _review, ...rest } = inputs.changeInput(a);
            return { ...rest, steps: await planSteps(a, inputs.cwd), verify_each: a['verify-each'], squash: a['squash'] };
          })(args);
        }
        for (const flag of ['verify-each', 'squash']) {
          if (args[flag] !== undefined) throw new TugError('InvalidArgument', `--${flag} goes with --plan`, { details: { argument: flag, reason: 'needs --plan' } });
        }
        const operation = supportedOperation(named(args, 'run'), 'run', refactorNames());
        const fields = refactorInput(operation, args);
        return run(operation, (a) => ({ ...inputs.changeInput(a), ...fields }))(args);
      },
    )
    .command(
      `rename ${positionalWords('rename-symbol')}`,
      'Rename the symbol at FILE:LINE:COL everywhere (same as run rename-symbol)',
      (y) =>
        changeOptions(renameTargetFlags(renameOptions(positionalHelp(y, 'rename-symbol'))))
          .example('tug rename src/utils.py:42:5 transform_data', '')
          .example('tug rename --at src/utils.py:42:5 --to transform_data', '')
          .example('git tug rename src/utils.py:42:5 transform_data --apply', '')
          .example('tug rename src/lib.rs:1:8 transform_data --verify tests', ''),
      (args: Args) => {
        const fields = refactorInput('rename-symbol', args);
        return run('rename-symbol', (a) => ({ ...inputs.changeInput(a), ...fields }))(args);
      },
    )
    .command(refactors().map((op) => shorthandCommand(op, run, inputs)));
}

/** --plan FILE instead of an operation; both at once is refused (the plan names its own operations). */
function planGiven(args: Args): boolean {
  if (args['plan'] === undefined) return false;
  if (args['operation'] !== undefined) {
    throw new TugError('InvalidArgument', `give either an operation (${String(args['operation'])}) or --plan, not both`, { details: { argument: 'plan', reason: 'conflicts with operation' } });
  }
  return true;
}

/** The operation positional, now optional because --plan can stand for it. */
function named(args: Args, command: string): unknown {
  if (args['operation'] !== undefined) return args['operation'];
  throw new TugError('InvalidArgument', `${command} needs a refactor (${refactorNames().join(', ')}) or --plan FILE`, { details: { argument: 'operation', reason: 'missing' } });
}

async function planSteps(args: Args, cwd: string): Promise<unknown> {
  const { readPlanFile } = await import('./plan-file.js');
  return readPlanFile(String(args['plan']), cwd);
}

/** The command that runs a refactor directly: its declared shorthand (`move`), else its own name (`assist`). */
export function shorthandOf(op: Operation): string {
  return op.cli!.shorthand ?? op.name;
}

/** `tug move [AT] [DESTINATION]`: the refactor's own flags, its positionals, and its examples in both spellings. */
function shorthandCommand(op: Operation, run: RunCommand, inputs: Inputs) {
  const shorthand = shorthandOf(op);
  const words = positionalWords(op.name);
  return {
    command: `${shorthand}${words ? ` ${words}` : ''}`,
    aliases: shorthand === op.name ? [] : [op.name],
    describe: `${op.description.split('. ')[0]} (same as run ${op.name})`,
    builder: (y: Argv) =>
      changeOptions(addOwnFlags(positionalHelp(y, op.name), op)).example(
        [...op.cli!.examples.map((e) => e.replace(`run ${op.name}`, shorthand)), positionalExample(op)].filter((e): e is string => e !== undefined).map((e) => [e, ''] as [string, string]),
      ),
    handler: (args: Args) => {
      const fields = refactorInput(op.name, args);
      return run(op.name, (a) => ({ ...inputs.changeInput(a), ...fields }))(args);
    },
  };
}

function positionalHelp<T>(y: Argv<T>, name: string): Argv<T> {
  const { target, value, many } = positionalFlags(name);
  let out = y;
  if (target) out = out.positional(target.toUpperCase(), { type: 'string', array: many, describe: `Same as --${target}` });
  if (value) out = out.positional(value.toUpperCase(), { type: 'string', describe: `Same as --${value}` });
  return out;
}

/** The first example written with positionals, so -h shows the short spelling next to the flags. */
function positionalExample(op: Operation): string | undefined {
  const { target, value } = positionalFlags(op.name);
  const first = op.cli!.examples[0];
  if (!first || !target) return undefined;
  const flagValue = (flag: string) => new RegExp(`--${flag} ('[^']*'|\\S+)`).exec(first)?.[1];
  const t = flagValue(target);
  if (t === undefined) return undefined;
  const v = value ? flagValue(value) : undefined;
  let rest = first.replace(`run ${op.name}`, shorthandOf(op)).replace(` --${target} ${t}`, '');
  if (v !== undefined) rest = rest.replace(` --${value} ${v}`, '');
  const [head, ...tail] = rest.split(' ');
  return [head, tail[0], t, ...(v !== undefined ? [v] : []), ...tail.slice(1)].join(' ');
}
