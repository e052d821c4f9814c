// A plan step may name its refactor as the command line does (`rename`, `move`, `organize-imports`) or as MCP does
// (`tug_rename_symbol`, `rename_symbol`); the command line's shorthands are checked against the commands themselves.
import test from 'ava';
import { shorthandOf } from '../lib/cli/refactor-commands.js';
import { refactors } from '../lib/cli/refactor-flags.js';
import { stepOperationName } from '../lib/ops/replay/runners.js';

test('every command-line shorthand and MCP name of a refactor names its step', (t) => {
  t.is(stepOperationName('rename'), 'rename-symbol');
  t.is(stepOperationName('tug_rename_symbol'), 'rename-symbol');
  for (const op of refactors()) {
    t.is(stepOperationName(shorthandOf(op)), op.name, shorthandOf(op));
    t.is(stepOperationName(`tug_${op.name.replaceAll('-', '_')}`), op.name);
  }
  t.throws(() => stepOperationName('renam'), { message: /did you mean rename/ });
});
