// Rust renames on the fixture crates through the real CLI, rust-analyzer, cargo and git, compared with golden/rust/<case>.
import test, { type ExecutionContext } from 'ava';
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { makeRepo } from './helpers/repo.js';
import { tug } from './helpers/cli.js';
import { expectGolden, PROJECT_ROOT } from './helpers/golden.js';
import { requireRustToolchain } from './helpers/toolchains.js';

interface Case {
  name: string;
  workspace: string;
  at: string;
  to: string;
  verify: string;
  expect: string;
  expected_edits?: number;
  expected_files?: number;
}

const FIXTURES = path.join(PROJECT_ROOT, 'fixtures', 'rust');
const manifest = JSON.parse(await readFile(path.join(FIXTURES, 'manifest.json'), 'utf8')) as { cases: Case[] };

// Each case starts its own rust-analyzer and cargo build; a few at a time keeps a 2-core machine responsive.
let running = 0;
const waiting: Array<() => void> = [];
async function limited<T>(body: () => Promise<T>): Promise<T> {
  while (running >= 3) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await body();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

for (const c of manifest.cases) test(`rust ${c.name}`, (t) => limited(() => check(t, c)));

async function check(t: ExecutionContext, c: Case): Promise<void> {
  if (!(await requireRustToolchain(t))) return;
  const repo = await makeRepo({});
  await cp(path.join(FIXTURES, c.workspace), repo.root, { recursive: true, filter: (src) => !/[/\\](target|Cargo\.lock)$/.test(src) });
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', `fixture ${c.workspace}`);
  const run = await tug(repo.root, ['rename', c.at, c.to, '--verify', c.verify]);
  const normalized = `${run.stdout.replaceAll(repo.root, '<workspace>')}\n`;
  await expectGolden(t, `rust/${c.name}.json`, normalized);
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
  await expectGolden(t, `rust/${c.name}.patch`, run.json.patch.unified_diff);
  await repo.cleanup();
}
