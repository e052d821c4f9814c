// Configuration layers: flags > TUG_* > tug.toml > pyproject.toml [tool.tug] > defaults, and errors that name the key.
import test from 'ava';
import { makeRepo } from './helpers/repo.js';
import { tug } from './helpers/cli.js';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// A user config dir of our own (trust records live there), never the real one.
process.env['XDG_CONFIG_HOME'] = await mkdtemp(path.join(os.tmpdir(), 'tug-config-test-'));

const SOURCE = { 'app.py': 'def f():\n    return 1\n\nprint(f())\n' };
const names = (run: { json: any }) => run.json.verification.checks.map((c: any) => c.name);

test('each layer overrides the one below it', async (t) => {
  const repo = await makeRepo({
    ...SOURCE,
    'pyproject.toml': '[tool.tug]\nverify = "tests"\ntest_command = ["{python}", "-c", "print(1)"]\n',
  });
  t.is((await tug(repo.root, ['trust', '--confirm'])).json.trust, 'trusted', 'test_command needs a trusted repository');
  const fromPyproject = await tug(repo.root, ['rename', 'app.py:1:5', 'g']);
  t.is(fromPyproject.exitCode, 0, fromPyproject.stdout);
  t.deepEqual(names(fromPyproject), ['python-syntax', 'tests']);
  t.is(fromPyproject.json.verification.mode, 'tests');
  await repo.write('tug.toml', 'verify = "none"\n');
  t.is((await tug(repo.root, ['rename', 'app.py:1:5', 'h'])).json.verification.mode, 'none', 'tug.toml beats pyproject');
  t.is((await tug(repo.root, ['rename', 'app.py:1:5', 'h'], { env: { TUG_VERIFY: 'syntax' } })).json.verification.mode, 'syntax', 'TUG_VERIFY beats tug.toml');
  const flag = await tug(repo.root, ['rename', 'app.py:1:5', 'h', '--verify', 'tests'], { env: { TUG_VERIFY: 'syntax' } });
  t.is(flag.json.verification.mode, 'tests', 'the flag beats everything');
  await repo.cleanup();
});

test('invalid configuration is InvalidConfig naming the file and key; nothing runs', async (t) => {
  const bad = await makeRepo({ ...SOURCE, 'pyproject.toml': '[tool.tug]\nverify = "sometimes"\n' });
  const run = await tug(bad.root, ['rename', 'app.py:1:5', 'g']);
  t.is(run.exitCode, 2);
  t.is(run.json.error.code, 'InvalidConfig');
  t.regex(run.json.error.message, /pyproject\.toml \[tool\.tug\] verify/);
  t.is(await bad.git('for-each-ref', 'refs/heads/tug'), '');
  const typo = await makeRepo({ ...SOURCE, 'tug.toml': 'verfy = "tests"\n' });
  // An unknown key is no failure: it is ignored with a warning naming the closest known key (tests/cli-config.test.ts).
  const unknown = await tug(typo.root, ['rename', 'app.py:1:5', 'g']);
  t.is(unknown.exitCode, 0, unknown.stdout);
  t.regex(unknown.json.warnings.find((w: { code: string }) => w.code === 'UnknownConfigKey').message, /tug\.toml: unknown key verfy; did you mean verify\?/);
  const broken = await makeRepo({ ...SOURCE, 'tug.toml': 'verify = \n' });
  t.regex((await tug(broken.root, ['rename', 'app.py:1:5', 'g'])).json.error.message, /tug\.toml is not valid TOML/);
  const env = await tug(bad.root, ['verify'], { env: { TUG_TEST_TIMEOUT: '-3' } });
  t.is(env.json.error.code, 'InvalidConfig');
  await bad.cleanup();
  await typo.cleanup();
  await broken.cleanup();
});
