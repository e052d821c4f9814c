// `tug doctor` reports every prerequisite with what it is for and how to fix it; a stock python3 without LibCST renames.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { existsSync } from 'node:fs';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { tugOnTerminal } from './helpers/pty.js';

type Check = { name: string; status: string; found: string | null; needed_for: string; fix: string | null };
const byName = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

test('doctor --json lists every check in order; a missing one says what it is for and the command that fixes it', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const run = await tug(repo.root, ['doctor', '--json', '--python', '/nonexistent/python3', '--rust-analyzer', '/nonexistent/rust-analyzer', '--session-dir', '/dev/null/tug']);
  t.is(run.exitCode, 0, run.stderr);
  const checks: Check[] = run.json.checks;
  t.deepEqual(checks.map((c) => c.name), ['git', 'node', 'python', 'pytest', 'libcst', 'rust-analyzer', 'cargo', 'clippy', 'typescript', 'bubblewrap', 'repository', 'session dir', 'daemon']);
  const c = byName(checks);
  t.is(c['git']!.status, 'ok');
  t.regex(c['git']!.found!, /^git version /);
  t.is(c['node']!.found, `v${process.versions.node}`);
  t.is(c['python']!.status, 'missing');
  t.regex(c['python']!.fix!, /apt-get install python3|--python/);
  t.is(c['rust-analyzer']!.status, 'missing');
  t.regex(c['rust-analyzer']!.fix!, /^tug toolchain rust setup/);
  t.is(c['repository']!.found, repo.root);
  t.is(c['session dir']!.status, 'missing');
  t.regex(c['session dir']!.fix!, /--session-dir/);
  t.is(c['daemon']!.status, 'info');
  t.deepEqual(run.json.missing, checks.filter((k) => k.status === 'missing').map((k) => k.name));
  t.true(run.json.missing.includes('python') && run.json.missing.includes('session dir'));
  for (const k of checks) t.is(k.fix === null, k.status !== 'missing', `${k.name}: a fix exactly when missing`);
  await repo.cleanup();
});

test('doctor on a terminal prints one line per check and the fixes; in a good setup python and the session dir are ok', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const screen = await tugOnTerminal(repo.root, ['doctor', '--rust-analyzer', '/nonexistent/rust-analyzer']);
  t.is(screen.exitCode, 0, screen.screen);
  t.regex(screen.screen, /^ok {6}git {12}git version/m);
  t.regex(screen.screen, /^ok {6}python {9}\S+ \(Python 3\.\d+\.\d+, from /m);
  t.regex(screen.screen, /^ok {6}session dir {4}\S+\/\.git\/tug$/m);
  t.regex(screen.screen, /^MISSING rust-analyzer {2}not found/m);
  t.regex(screen.screen, /^to fix:\n {2}rust-analyzer: tug toolchain rust setup/m);
  const outside = await tug('/', ['doctor']);
  t.is(outside.exitCode, 0);
  t.is(byName(outside.json.checks)['repository']!.status, 'info');
  await repo.cleanup();
});

test('a stock Debian python3 without LibCST: doctor says LibCST is optional, and a rename works with it', async (t) => {
  const stock = '/usr/bin/python3';
  const hasLibcst = existsSync(stock) && (await execa(stock, ['-c', 'import libcst'], { reject: false })).exitCode === 0;
  if (!existsSync(stock) || hasLibcst) {
    if (process.env['CI'] && !existsSync(stock)) t.fail(`${stock} is missing`);
    t.log(`SKIPPED: ${stock} ${existsSync(stock) ? 'has LibCST' : 'is missing'}`);
    return t.pass();
  }
  const repo = await makeRepo({ 'a.py': 'def f():\n    return 1\n\n\nprint(f())\n' });
  const doctor = await tug(repo.root, ['doctor', '--python', stock]);
  const c = byName(doctor.json.checks);
  t.is(c['python']!.status, 'ok');
  t.is(c['libcst']!.status, 'info');
  t.is(c['libcst']!.found, null);
  t.false(doctor.json.missing.includes('libcst'));
  const rename = await tug(repo.root, ['rename', 'a.py:1:5', 'g', '--python', stock]);
  t.is(rename.exitCode, 0, rename.stdout);
  t.is(rename.json.verification.checks[0].command[0], stock);
  await repo.cleanup();
});
