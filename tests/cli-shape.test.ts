// One command-line shape for every refactor: flags everywhere, and `tug REFACTOR TARGET [VALUE]` as the positional
// shorthand of the same flags, so `tug move A B` is `tug run move-symbol --at A --destination B` (same patch), the
// old spellings still work, and a place given twice or a missing one is an InvalidArgument naming both forms.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const FILES = {
  'geometry.py': [
    'import sys',
    'import os',
    '',
    '',
    'def area(width, height):',
    '    return width * height',
    '',
    '',
    'def report(width, height):',
    '    size = area(width, height)',
    '    return str(size) + os.sep',
    '',
  ].join('\n'),
};

/** Each refactor once with flags (`tug run NAME --flag …`) and once with positionals (its shorthand). */
const CASES: Array<{ name: string; flags: string[]; positional: string[]; changes: boolean }> = [
  { name: 'rename-symbol', flags: ['--at', 'geometry.py:5:5', '--to', 'surface'], positional: ['rename', 'geometry.py:5:5', 'surface'], changes: true },
  { name: 'move-symbol', flags: ['--at', 'geometry.py:5:5', '--destination', 'shapes'], positional: ['move', 'geometry.py:5:5', 'shapes'], changes: true },
  { name: 'extract-variable', flags: ['--range', 'geometry.py:10:12-10:31', '--name', 'measured'], positional: ['extract-variable', 'geometry.py:10:12-10:31', 'measured'], changes: true },
  { name: 'extract-function', flags: ['--range', 'geometry.py:10:5-10:31', '--name', 'sized'], positional: ['extract-function', 'geometry.py:10:5-10:31', 'sized'], changes: true },
  { name: 'inline', flags: ['--at', 'geometry.py:10:5'], positional: ['inline', 'geometry.py:10:5'], changes: true },
  {
    name: 'change-signature',
    flags: ['--at', 'geometry.py:5:5', '--params', '[{"name":"height"},{"name":"width"}]'],
    positional: ['change-signature', 'geometry.py:5:5', '[{"name":"height"},{"name":"width"}]'],
    changes: true,
  },
  { name: 'organize-imports', flags: ['--file', 'geometry.py'], positional: ['organize-imports', 'geometry.py'], changes: true },
];

for (const c of CASES) {
  test.serial(`${c.name}: the positional shorthand and the flags give the same patch`, async (t) => {
    const repo = await makeRepo(FILES);
    const byFlags = await tug(repo.root, ['run', c.name, ...c.flags, '--verify', 'none']);
    t.is(byFlags.exitCode, 0, byFlags.stdout);
    const byPositionals = await tug(repo.root, [...c.positional, '--verify', 'none']);
    t.is(byPositionals.exitCode, 0, byPositionals.stdout);
    t.is(byPositionals.json.patch.unified_diff, byFlags.json.patch.unified_diff);
    if (c.changes) t.regex(byFlags.json.patch.unified_diff, /^diff --git/);
    // `tug run NAME TARGET VALUE` reads the positionals the same way.
    const runPositional = await tug(repo.root, ['run', c.name, ...c.positional.slice(1), '--verify', 'none']);
    t.is(runPositional.json.patch.unified_diff, byFlags.json.patch.unified_diff);
    await repo.cleanup();
  });
}

test.serial('rename takes --at/--to like every refactor, run organize-imports takes two files, and move-symbol is also a command name', async (t) => {
  const repo = await makeRepo(FILES);
  const flags = await tug(repo.root, ['rename', '--at', 'geometry.py:5:5', '--to', 'surface', '--verify', 'none']);
  t.is(flags.exitCode, 0, flags.stdout);
  t.regex(flags.json.patch.unified_diff, /\+def surface\(width, height\):/);
  const impact = await tug(repo.root, ['analyze-impact', 'rename-symbol', 'geometry.py:5:5', 'surface']);
  t.is(impact.exitCode, 0, impact.stdout);
  const impactByFlags = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'geometry.py:5:5', '--to', 'surface']);
  t.deepEqual(impact.json, impactByFlags.json);
  t.is(impact.json.symbol.name, 'area');
  await repo.write('other.py', 'import sys\nimport os\n\nprint(os.sep, sys.argv)\n');
  await repo.git('add', 'other.py');
  await repo.git('commit', '-q', '-m', 'a second file to organize');
  const twoFiles = await tug(repo.root, ['run', 'organize-imports', 'geometry.py', 'other.py', '--verify', 'none']);
  const twoByFlags = await tug(repo.root, ['organize-imports', '--file', 'geometry.py', '--file', 'other.py', '--verify', 'none']);
  t.is(twoFiles.exitCode, 0, twoFiles.stdout);
  t.deepEqual(twoFiles.json.patch.edits, twoByFlags.json.patch.edits);
  t.regex(twoFiles.json.patch.unified_diff, /other\.py/);
  const alias = await tug(repo.root, ['move-symbol', 'geometry.py:5:5', 'shapes', '--verify', 'none']);
  t.is(alias.exitCode, 0, alias.stdout);
  t.is(alias.json.operation, 'move-symbol');
  await repo.cleanup();
});

test.serial('a place given twice, an argument too many or a missing VALUE is InvalidArgument naming the flag', async (t) => {
  const repo = await makeRepo(FILES);
  const cases: Array<[string[], RegExp, string]> = [
    [['move', 'geometry.py:5:5', '--at', 'geometry.py:9:5', '--destination', 'shapes'], /--at given twice, as the argument geometry.py:5:5 and as --at geometry.py:9:5; give it once \(the arguments are AT DESTINATION, in that order\)/, 'at'],
    [['move', 'geometry.py:5:5'], /^move-symbol needs --destination \(or DESTINATION as its second argument\)$/, 'destination'],
    [['rename', '--to', 'surface'], /^rename-symbol needs --at \(or AT as its first argument\)$/, 'at'],
    [['run', 'inline', 'geometry.py:10:5', 'extra'], /^inline takes no VALUE argument \(extra\)/, 'VALUE'],
    [['assist', 'src/lib.rs:8:5'], /^assist needs --id \(or ID as its second argument\)$/, 'id'],
  ];
  for (const [args, message, argument] of cases) {
    const run = await tug(repo.root, args);
    t.is(run.exitCode, 2, args.join(' '));
    t.is(run.json.error.code, 'InvalidArgument', args.join(' '));
    t.regex(run.json.error.message, message);
    t.is(run.json.error.details.argument, argument);
  }
  t.is(await repo.git('branch', '--list', 'tug/*'), '', 'nothing ran');
  await repo.cleanup();
});

test('every refactor command shows its positionals in --help, named after the flags they stand for', async (t) => {
  const help = (await tug('/', ['--help'])).stdout;
  for (const line of ['tug rename [AT] [TO]', 'tug move [AT] [DESTINATION]', 'tug inline [AT]', 'tug extract-variable [RANGE] [NAME]', 'tug extract-function [RANGE] [NAME]', 'tug change-signature [AT] [PARAMS]', 'tug organize-imports [FILE..]', 'tug assist [AT] [ID]', 'tug run [operation] [TARGET] [VALUE]']) {
    t.true(help.includes(line), line);
  }
  const move = (await tug('/', ['move', '-h'])).stdout;
  t.regex(move, /tug move src\/shop\/pricing\.py:34:5 shop\.discounts/);
  t.regex(move, /AT +Same as --at/);
});
