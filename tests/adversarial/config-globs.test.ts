// A repository's include/exclude globs are input tug does not control: a malformed one is InvalidConfig naming it (not
// exit 10 on every command), and a glob built to make a backtracking matcher spin is matched in linear time.
import test from 'ava';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';
import { globToRegExp, matchesGlob } from '../../lib/core/glob.js';
import { selects } from '../../lib/core/file-selection.js';

const SOURCE = { 'a.py': 'def f():\n    return 1\n' };

for (const glob of ['[', 'src/[a-', '{a,b', '[z-a].py']) {
  test(`include = [${JSON.stringify(glob)}] in [tool.tug] is InvalidConfig naming the glob (exit 2)`, async (t) => {
    const repo = await makeRepo({ ...SOURCE, 'pyproject.toml': `[tool.tug]\ninclude = [${JSON.stringify(glob)}]\n` });
    const run = await tug(repo.root, ['rename', 'a.py:1:5', 'g']);
    t.is(run.exitCode, 2, run.stdout);
    t.is(run.json.error.code, 'InvalidConfig');
    t.is(run.json.error.details.source, 'pyproject.toml [tool.tug]');
    t.is(run.json.error.details.key, 'include');
    t.true(run.json.error.message.includes(JSON.stringify(glob)), run.json.error.message);
    await repo.cleanup();
  });
}

test('a malformed exclude glob in tug.toml and one on the command line are named too', async (t) => {
  const repo = await makeRepo({ ...SOURCE, 'tug.toml': 'exclude = ["a[b"]\n' });
  const file = await tug(repo.root, ['rename', 'a.py:1:5', 'g']);
  t.is(file.json.error.code, 'InvalidConfig', file.stdout);
  t.is(file.json.error.details.source, 'tug.toml');
  const env = await tug(repo.root, ['rename', 'a.py:1:5', 'g'], { env: { TUG_INCLUDE: '**/*.py,{x' } });
  t.is(env.json.error.code, 'InvalidConfig', env.stdout);
  await repo.cleanup();
});

// `*a*a…*a*b` against a long run of a's: a backtracking regex tries every split of the name (it spun for over 60 s).
const HOSTILE = `${'*a'.repeat(30)}*b`;
const LONG = `${'a'.repeat(60)}/${'a'.repeat(200)}.py`;

test('a glob built for catastrophic backtracking is matched in linear time (library)', (t) => {
  t.false(globToRegExp(HOSTILE).test('a'.repeat(5000)));
  t.false(matchesGlob(LONG, HOSTILE));
  t.false(selects({ include: [`**/${HOSTILE}`], exclude: [] }, LONG));
  // A "does not hang" guard only: each match takes milliseconds; a backtracking engine takes minutes.
});

test('a hostile include glob in the repository does not hang a rename', async (t) => {
  const repo = await makeRepo({ ...SOURCE, [LONG]: 'x = 1\n', 'tug.toml': `include = [${JSON.stringify(`**/${HOSTILE}`)}, "a.py"]\n` });
  const run = await tug(repo.root, ['rename', 'a.py:1:5', 'g', '--verify', 'none']);
  t.is(run.exitCode, 0, run.stdout);
  await repo.cleanup();
});

test('globs keep their meaning: *, **, ?, classes, negated classes, braces and literal punctuation', (t) => {
  t.true(matchesGlob('src/a.py', '*.py'));
  t.true(matchesGlob('src/deep/a.py', 'src/**/*.py'));
  t.true(matchesGlob('src/a.py', 'src/**/*.py'));
  t.false(matchesGlob('lib/a.py', 'src/**/*.py'));
  t.true(matchesGlob('a1.py', 'a?.py'));
  t.true(matchesGlob('b.py', '[abc].py'));
  t.false(matchesGlob('b.py', '[!abc].py'));
  t.true(matchesGlob(']x', '[]]x'));
  t.true(matchesGlob('a.ts', '*.{py,ts}'));
  t.true(matchesGlob('a+b(1).py', 'a+b(1).py'));
  t.false(matchesGlob('aab(1).py', 'a+b(1).py'));
  t.true(globToRegExp('GOOGLE_*').test('GOOGLE_APPLICATION'));
  t.false(globToRegExp('src/*.py').test('src/sub/a.py'));
});
