// Runs every `sh` block of docs/AGENT_PLAYBOOK.md, in order, in a fresh copy of the demo project.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from './helpers/golden.js';
import { makeRepo } from './helpers/repo.js';

test('the playbook recipes run as written', async (t) => {
  const doc = await readFile(path.join(PROJECT_ROOT, 'docs', 'AGENT_PLAYBOOK.md'), 'utf8');
  const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  t.true(blocks.length >= 6);
  const repo = await makeRepo({});
  await cp(path.join(PROJECT_ROOT, 'fixtures', 'demo', 'project'), repo.root, { recursive: true });
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'demo');
  const script = `set -euo pipefail\n${blocks.join('\n')}`;
  const run = await execa('bash', ['-c', script], {
    cwd: repo.root,
    reject: false,
    env: { PATH: `${path.join(PROJECT_ROOT, 'bin')}${path.delimiter}${process.env['PATH']}`, TUG_LOCK_TIMEOUT_MS: '5000' },
  });
  t.is(run.exitCode, 0, `${run.stdout}\n${run.stderr}`);
  const out = run.stdout.split('\n');
  t.true(out.includes('7'), 'analyze-impact counts 7 references');
  t.true(out.includes('tug/rename/total_value-to-inventory_value'));
  t.true(out.includes('refactor(rename): total_value -> inventory_value'));
  t.true(out.includes('inventory/report.py'));
  t.true(out.includes('Revert "refactor(rename): total_value -> inventory_value"'), 'undo --revert after the merge made a revert commit');
  t.true(out.includes('0'), 'and left a clean working tree');
  t.true(out.some((line) => line.includes('lines, worth')), 'read_file shows the numbered line');
  t.true(out.includes('tug/edit/wording'));
  t.true(out.includes('create_file edit_file'), 'the log lists the two tool calls, newest first');
  t.true(out.includes('refactor(edit): create inventory/NOTES.md'));
  t.true(out.includes('exit 2'));
  t.true(out.includes('InvalidArgument'));
  t.true(out.includes('check-merge exit 1'), 'check-merge refuses the branch made before the base moved');
  t.true(out.includes('inventory/audit.py:1 inventory/audit.py:5'), 'and names the new uses of the old name');
  t.true(out.includes('clean true'), 'the replayed branch merges clean');
  t.true(out.includes('no total_value left'));
  t.true(out.includes('inventory/report.py,tests/test_stock.py | inventory/__init__.py,inventory/audit.py,inventory/report.py,inventory/stock.py,tests/test_stock.py'), 'the plan preview lists each step\'s files');
  t.true(out.includes('2 commits on tug/plan/rename-symbol-describe-and-1-more, verification passed'), 'the plan was verified and made a commit per step');
  await repo.cleanup();
});
