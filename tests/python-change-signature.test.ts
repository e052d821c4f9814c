// Python change-signature on a src-layout package through the real CLI, worker and git: each ok case runs the
// package's own tests in the sandbox; refusals name their code. The analysis reads only the files that mention the function.
import test from 'ava';
import { checkOpCase, opManifest } from './helpers/op-cases.js';
import { tug } from './helpers/cli.js';
import { fixtureRepo } from './helpers/rename-cases.js';

const manifest = await opManifest('change_signature.json');

for (const c of manifest.cases) test(`python ${c.name}`, (t) => checkOpCase(t, manifest.workspace, c, 'python-change-signature', [], { warnings: true }));


test('change-signature and inline read only the files that mention the function (and what those import); the goldens above were made from whole loads', async (t) => {
  const repo = await fixtureRepo('python', 'change_signature/shop');
  // A file that does not parse and does not mention the function: a load of every file would have to skip it.
  await repo.write('src/shop/broken.py', 'def (:\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'a broken module');
  const env = { TUG_DAEMON_AUTOSTART: '0', TUG_TIMINGS: '1' };
  const params = JSON.stringify([{ name: 'amount' }, { name: 'rounding', default: '2' }, { name: 'rate', default: '0.2' }]);
  const run = await tug(repo.root, ['analyze-impact', 'change-signature', '--at', 'src/shop/prices.py:4:5', '--params', params, '--json'], { env });
  t.is(run.exitCode, 0, run.stdout);
  const loaded = run.stderr.split('\n').find((l) => / files loaded /.test(l));
  const [, read, total] = / (\d+) of (\d+) files loaded/.exec(loaded ?? '') ?? [];
  t.true(Number(read) < Number(total), loaded);
  t.false(JSON.stringify(run.json.warnings).includes('broken.py'), 'the broken module was never parsed');
  const inline = await tug(repo.root, ['analyze-impact', 'inline', '--at', 'src/shop/prices.py:4:5', '--json'], { env });
  t.true(inline.stderr.split('\n').some((l) => / \d+ of \d+ files loaded /.test(l)), inline.stderr);
  t.not(inline.json.error?.code, 'InternalError', inline.stdout);
});
