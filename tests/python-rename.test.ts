// Python renames on the fixture projects through the real CLI, worker and git, compared with golden/python/<case>.
import test, { type ExecutionContext } from 'ava';
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { makeRepo } from './helpers/repo.js';
import { tug } from './helpers/cli.js';
import { expectGolden, PROJECT_ROOT } from './helpers/golden.js';

interface Case {
  name: string;
  workspace: string;
  at: string;
  to: string;
  verify: string;
  expect: string;
  expected_edits?: number;
  expected_files?: number;
  flags?: string[];
}

const FIXTURES = path.join(PROJECT_ROOT, 'fixtures', 'python');
const manifest = JSON.parse(await readFile(path.join(FIXTURES, 'manifest.json'), 'utf8')) as { cases: Case[] };

for (const c of manifest.cases) test(`python ${c.name}`, (t) => check(t, c));

async function check(t: ExecutionContext, c: Case): Promise<void> {
  const repo = await makeRepo({});
  await cp(path.join(FIXTURES, c.workspace), repo.root, { recursive: true });
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', `fixture ${c.workspace}`);
  const run = await tug(repo.root, ['rename', c.at, c.to, '--verify', c.verify, ...(c.flags ?? [])]);
  const normalized = `${run.stdout.replaceAll(repo.root, '<workspace>').replace(/"[^"]*python3?"/g, '"<python>"')}\n`;
  await expectGolden(t, `python/${c.name}.json`, normalized);
  if (c.expect !== 'ok') {
    t.is(run.json?.error?.code, c.expect, run.stdout);
    t.not(run.exitCode, 0);
    await repo.cleanup();
    return;
  }
  t.is(run.exitCode, 0, run.stdout);
  if (c.expected_edits !== undefined) t.is(run.json.summary.edits_count, c.expected_edits, 'edit count');
  if (c.expected_files !== undefined) t.is(run.json.summary.files_changed, c.expected_files, 'file count');
  t.is(run.json.verification.status, 'passed');
  await expectGolden(t, `python/${c.name}.patch`, run.json.patch.unified_diff);
  await repo.cleanup();
}
