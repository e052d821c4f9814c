// Settings that change where tug keeps its session and what it says on stderr: --session-name, --fresh,
// TUG_SESSION_DIR, -v/-q/--log-level/--log-format.
import test from 'ava';
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { makeRepo, tempDir } from './helpers/repo.js';
import { tugOnTerminal } from './helpers/pty.js';

const APP = 'def f():\n    return 1\n\n\nprint(f())\n';
const exists = (p: string) => access(p).then(() => true, () => false);

test('--session-name keeps a named session apart; TUG_SESSION_DIR moves the default one (relative to the repository root)', async (t) => {
  const repo = await makeRepo({ 'app.py': APP });
  const named = await tug(repo.root, ['rename', 'app.py:1:5', 'g', '--session-name', 'exp-1']);
  t.is(named.exitCode, 0, named.stdout);
  const namedDir = path.join(repo.root, '.git', 'tug', 'sessions', 'exp-1');
  t.true((await readdir(namedDir)).includes('operations.jsonl'));
  t.is((await tug(repo.root, ['session', 'status', '--session-name', 'exp-1'])).json.session.path, namedDir);
  t.is((await tug(repo.root, ['log', '--session-name', 'exp-1'])).json.entries.length, 1);
  t.is((await tug(repo.root, ['log'])).json.entries.length, 0, 'the default session saw nothing');
  const bad = await tug(repo.root, ['log', '--session-name', '../x']);
  t.is(bad.json.error.code, 'InvalidArgument');
  const both = await tug(repo.root, ['log', '--session-name', 'a', '--session-dir', '/tmp/x']);
  t.regex(both.json.error.message, /cannot be combined/);

  const outside = await tempDir('tug-sessions-');
  const relative = path.relative(repo.root, outside);
  const moved = await tug(path.join(repo.root), ['session', 'status'], { env: { TUG_SESSION_DIR: relative } });
  t.is(moved.json.session.path, outside);
  t.true(await exists(path.join(outside, 'session.json')));
  await repo.cleanup();
});

test('--fresh starts the session without caches or sandboxes and keeps undo points and the log', async (t) => {
  const repo = await makeRepo({ 'app.py': APP });
  const run = await tug(repo.root, ['rename', 'app.py:1:5', 'g']);
  t.is(run.exitCode, 0, run.stdout);
  const before = await tug(repo.root, ['session', 'status']);
  t.true(before.json.cache.facts_files > 0);
  const after = await tug(repo.root, ['session', 'status', '--fresh']);
  t.is(after.json.cache.facts_files, 0);
  t.deepEqual(after.json.sandboxes, []);
  t.is(after.json.undo_tokens, before.json.undo_tokens);
  t.is((await tug(repo.root, ['log'])).json.entries.length, 1);
  const again = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'h', '--fresh']);
  t.is(again.exitCode, 0, 'a fresh session rebuilds what it needs');
  t.is(again.json.impact.references_count, 2);
  await repo.cleanup();
});

test('logging: progress by default on a terminal, -q none, -v debug lines, --log-format json one object per line', async (t) => {
  const repo = await makeRepo({ 'app.py': APP });
  const plain = await tugOnTerminal(repo.root, ['verify']);
  t.regex(plain.screen, /^tug: verifying \(syntax\)$/m);
  t.notRegex(plain.screen, /debug/);
  const quiet = await tugOnTerminal(repo.root, ['verify', '-q']);
  t.notRegex(quiet.screen, /^tug: /m);
  t.regex(quiet.screen, /^verification passed/m);
  const piped = await tug(repo.root, ['verify']);
  t.is(piped.stderr, '', 'a pipe gets no progress by default');
  const verbose = await tug(repo.root, ['verify', '-v']);
  t.regex(verbose.stderr, /^tug: debug: verify: \{"workspace":/m);
  t.regex(verbose.stderr, /^tug: verifying \(syntax\)$/m);
  t.regex(verbose.stderr, /^tug: debug: verify finished in \d+ ms$/m);
  t.is(verbose.json.status, 'ok', 'stdout stays the JSON contract');
  const json = await tug(repo.root, ['verify', '--log-level', 'info', '--log-format', 'json']);
  const lines = json.stderr.trim().split('\n').map((l) => JSON.parse(l) as { level: string; message: string; operation: string; time: string });
  t.deepEqual(lines.map((l) => [l.level, l.message, l.operation]), [['info', 'verifying (syntax)', 'verify']]);
  t.regex(lines[0]!.time, /^\d{4}-\d\d-\d\dT/);
  const clash = await tug(repo.root, ['verify', '-v', '-q']);
  t.is(clash.json.error.code, 'InvalidArgument');
  await repo.cleanup();
});
