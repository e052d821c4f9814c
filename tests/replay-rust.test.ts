// A Rust rename (rust-analyzer, cargo) made before the base gained a caller of the old name: check-merge names the new
// uses, replay re-runs the rename on the new base, and the replayed branch merges with cargo test passing.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const ENV = { TUG_NO_DAEMON: '1' };
const CRATE = {
  'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  'src/lib.rs': 'pub mod cart;\npub mod pricing;\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn total() {\n        assert_eq!(crate::cart::total(&[1, 2]), 3);\n    }\n}\n',
  'src/pricing.rs': 'pub fn compute_total(items: &[u32]) -> u32 {\n    items.iter().sum()\n}\n',
  'src/cart.rs': 'use crate::pricing::compute_total;\n\npub fn total(items: &[u32]) -> u32 {\n    compute_total(items)\n}\n',
  '.gitignore': 'target/\n',
};

test('a Rust rename replayed after the base gained a caller merges cleanly and cargo test passes', async (t) => {
  t.timeout(600_000);
  if (!(await requireRustToolchain(t))) return;
  const repo = await makeRepo(CRATE);
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'src/pricing.rs:1:8', 'calculate_total', '--verify', 'syntax', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const note = JSON.parse(await repo.git('notes', '--ref=tug', 'show', made.json.git.commit));
  t.like(note.symbol, { name: 'compute_total', file: 'src/pricing.rs', line: 1, col: 8 });

  await repo.write('src/report.rs', 'use crate::pricing::compute_total;\n\npub fn report(items: &[u32]) -> String {\n    format!("total: {}", compute_total(items))\n}\n');
  await repo.write('src/lib.rs', (await repo.readText('src/lib.rs')).replace('pub mod pricing;\n', 'pub mod pricing;\npub mod report;\n'));
  await repo.write('src/cart.rs', (await repo.readText('src/cart.rs')).replace('    compute_total(items)', '    // Prices are whole cents.\n    compute_total(items)'));
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'report; note on total');

  const check = await tug(repo.root, ['check-merge', made.json.git.branch, '--json'], { env: ENV });
  t.is(check.exitCode, 1, check.stdout + check.stderr);
  t.deepEqual(check.json.conflicts, ['src/cart.rs']);
  t.deepEqual(check.json.semantic.map((c: any) => `${c.file}:${c.line}:${c.col} ${c.found_by}`), ['src/report.rs:1:21 name', 'src/report.rs:4:26 name']);

  const replayed = await tug(repo.root, ['replay', made.json.git.branch, '--verify', 'tests', '--json'], { env: ENV });
  t.is(replayed.exitCode, 0, replayed.stdout + replayed.stderr);
  t.is(replayed.json.verification.status, 'passed');
  const merge = await execa('git', ['merge', '--ff-only', replayed.json.git.branch], { cwd: repo.root, reject: false });
  t.is(merge.exitCode, 0, merge.stderr);
  const cargo = await execa('cargo', ['test', '--quiet', '--offline'], { cwd: repo.root, reject: false, env: { CARGO_TARGET_DIR: `${repo.root}/target` } });
  t.is(cargo.exitCode, 0, cargo.stdout + cargo.stderr);
  t.is((await repo.git('grep', '-c', 'compute_total').catch(() => '')).trim(), '');
});
