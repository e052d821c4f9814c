// Settings that decide which files analysis considers (include/exclude from flags, TUG_INCLUDE/TUG_EXCLUDE and the
// config), and unknown config keys as warnings that name the closest known key instead of failing every command.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const FILES = {
  'app.py': 'def f():\n    return 1\n',
  'main.py': 'from app import f\n\nf()\n',
  'legacy/old.py': 'from app import f\n\nf()\n',
};
const files = (json: { references: Array<{ location: { file: string } }> }) => [...new Set(json.references.map((r) => r.location.file))].sort();

test('--exclude, --include, TUG_EXCLUDE and config exclude restrict which files a rename considers', async (t) => {
  const repo = await makeRepo(FILES);
  const impact = ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'g'];
  t.deepEqual(files((await tug(repo.root, impact)).json), ['app.py', 'legacy/old.py', 'main.py']);
  t.deepEqual(files((await tug(repo.root, [...impact, '--exclude', 'legacy/**'])).json), ['app.py', 'main.py']);
  t.deepEqual(files((await tug(repo.root, [...impact, '--include', '*.py'])).json), ['app.py', 'main.py'], '* does not cross /');
  t.deepEqual(files((await tug(repo.root, [...impact, '--include', '**/*.py', '--exclude', 'main.py'])).json), ['app.py', 'legacy/old.py']);
  t.deepEqual(files((await tug(repo.root, impact, { env: { TUG_EXCLUDE: 'legacy/**, main.py' } })).json), ['app.py']);
  const excluded = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'legacy/old.py:3:1', '--to', 'g', '--exclude', 'legacy/**']);
  t.is(excluded.exitCode, 2);
  t.regex(excluded.json.error.message, /legacy\/old\.py is left out by the include\/exclude globs/);

  await repo.write('tug.toml', 'exclude = ["legacy/**"]\n');
  await repo.git('add', 'tug.toml');
  await repo.git('commit', '-qm', 'config');
  t.deepEqual(files((await tug(repo.root, impact)).json), ['app.py', 'main.py'], 'the config excludes legacy/');
  t.deepEqual(files((await tug(repo.root, [...impact, '--exclude', 'nothing/**'])).json), ['app.py', 'legacy/old.py', 'main.py'], 'a flag replaces the config');
  const run = await tug(repo.root, ['rename', 'app.py:1:5', 'g', '--apply']);
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(run.json.files_written, ['app.py', 'main.py']);
  t.is(await repo.readText('legacy/old.py'), FILES['legacy/old.py'], 'the excluded file is left alone');
  await repo.cleanup();
});

test('an unknown config key is a warning naming the closest known key; the command still runs', async (t) => {
  const repo = await makeRepo({ ...FILES, 'pyproject.toml': '[tool.tug]\nverfy = "syntax"\nexclde = ["x"]\n\n[tool.tug.python]\npython_pth = "x"\n' });
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'g']);
  t.is(run.exitCode, 0, run.stdout);
  const unknown = run.json.warnings.filter((w: { code: string }) => w.code === 'UnknownConfigKey');
  t.deepEqual(
    unknown.map((w: { message: string }) => w.message),
    [
      'pyproject.toml [tool.tug]: unknown key verfy; did you mean verify? (ignored)',
      'pyproject.toml [tool.tug]: unknown key exclde; did you mean exclude? (ignored)',
      'pyproject.toml [tool.tug]: unknown key python.python_pth; did you mean python.python_path? (ignored)',
    ],
  );
  t.is(unknown[0].details.suggestion, 'verify');
  const rename = await tug(repo.root, ['rename', 'app.py:1:5', 'g']);
  t.is(rename.exitCode, 0);
  t.is(rename.json.warnings.filter((w: { code: string }) => w.code === 'UnknownConfigKey').length, 3);
  await repo.cleanup();
});

test('safety_mode: strict refuses an ambiguous position, normal takes the name before it with a warning, aggressive renames strings too', async (t) => {
  const source = 'def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ny = a if b else 0\nname = "a"  # a\n';
  const repo = await makeRepo({ 'm.py': source, 'lib.rs': 'pub fn a() {}\n' });
  const at = ['analyze-impact', 'rename-symbol', '--at', 'm.py:9:6', '--to', 'c'];
  t.is((await tug(repo.root, at)).json.error.code, 'AmbiguousSymbol', 'strict is the default');
  const normal = await tug(repo.root, [...at, '--safety', 'normal']);
  t.is(normal.exitCode, 0, normal.stdout);
  t.is(normal.json.symbol.name, 'a');
  t.regex(normal.json.warnings.find((w: { code: string }) => w.code === 'AmbiguousSymbol').message, /renamed a, the name before it/);
  const viaEnv = await tug(repo.root, at, { env: { TUG_SAFETY: 'normal' } });
  t.is(viaEnv.json.symbol.name, 'a');
  t.is((await tug(repo.root, [...at, '--safety', 'strict'], { env: { TUG_SAFETY: 'normal' } })).json.error.code, 'AmbiguousSymbol', 'the flag beats the environment');

  const plain = await tug(repo.root, ['rename', 'm.py:1:5', 'c']);
  t.is(plain.json.summary.edits_count, 2);
  await repo.write('tug.toml', 'safety_mode = "aggressive"\n');
  const aggressive = await tug(repo.root, ['rename', 'm.py:1:5', 'c']);
  t.is(aggressive.exitCode, 0, aggressive.stdout);
  t.is(aggressive.json.summary.edits_count, 4, 'the string and the comment too');
  t.true(aggressive.json.warnings.some((w: { code: string }) => w.code === 'StringRenamed'));
  const optedOut = await tug(repo.root, ['rename', 'm.py:1:5', 'c', '--no-rename-strings', '--no-rename-comments']);
  t.is(optedOut.json.summary.edits_count, 2, 'explicit flags beat the configured mode');

  const rust = await tug(repo.root, ['rename', 'lib.rs:1:8', 'c', '--safety', 'normal']);
  t.is(rust.json.error.code, 'InvalidArgument');
  t.regex(rust.json.error.message, /applies to Python renames/);
  await repo.cleanup();
});
