// inline of a Rust call whose argument is an untyped literal, and of a call that is an operand, through the real CLI
// with rust-analyzer and cargo: itoa's `u128_mulhi(n, 156927543384667019095894735580191660403)` (the sweep's caught
// result) became `let y = 1569…;`, an i32 literal out of range, and now keeps the parameter's type (`let y: u128`);
// `high(1 << 50) + high(5_000_000_000_000)` became `… + 5_000_000_000_000 >> 40`, which shifts the sum (a different
// value that compiled), and now keeps the pasted body in parentheses; a literal pasted for a parameter used once
// (`low(5_000_000_000_000)` → `(5_000_000_000_000 >> 8) as u32`, an i32 literal) gets the parameter's type as a suffix.
// The three calls on one crate go to one private daemon (helpers/warm-fixture.ts): rust-analyzer indexes it once, not
// three times; the cold CLI inline is rust-inline-call's first test.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { fnParams, untypedLiteral } from '../lib/rust/inline-params.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { withDaemon } from './helpers/warm-fixture.js';

const GUARD_MS = 900_000;
// fixtures/rust/itoa_udiv: itoa's udiv128.rs shape, with tests of its results.
const MANIFEST = readFileSync(new URL('../../fixtures/rust/itoa_udiv/Cargo.toml', import.meta.url), 'utf8');
const UDIV = readFileSync(new URL('../../fixtures/rust/itoa_udiv/src/udiv128.rs', import.meta.url), 'utf8');
const LIB = readFileSync(new URL('../../fixtures/rust/itoa_udiv/src/lib.rs', import.meta.url), 'utf8');

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
const colOf = (text: string, needle: string) => text.split('\n')[lineOf(text, needle) - 1]!.indexOf(needle) + 1;

test('the parameters of a fn, and which arguments take their type from the call', (t) => {
  t.deepEqual(fnParams('fn u128_mulhi(x: u128, mut y: u128) -> u128 {', 3), [{ name: 'x', type: 'u128' }, { name: 'y', type: 'u128' }]);
  t.deepEqual(fnParams('fn f<T: Into<u8>>(&self, v: Vec<T>, (a, b): (u8, u8)) {}', 3), [{ name: 'v', type: 'Vec<T>' }]);
  for (const literal of ['156927543384667019095894735580191660403', '1 << 83', '0xff_ff', '-(2.5e3)', '1_000']) t.true(untypedLiteral(literal), literal);
  for (const typed of ['1u8', '0xffu16', '2.0f32', 'n', 'x as u64', '1 + n', '']) t.false(untypedLiteral(typed), typed);
});

test("inline of itoa's u128_mulhi keeps the literal argument's type; a call that is an operand keeps its grouping", async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await makeRepo({ 'Cargo.toml': MANIFEST, 'src/lib.rs': LIB, 'src/udiv128.rs': UDIV });
  try {
    await withDaemon(repo.root, async (env) => {
      const call = 'u128_mulhi(n, 156927543384667019095894735580191660403)';
      const run = await tug(repo.root, ['run', 'inline', '--at', `src/udiv128.rs:${lineOf(UDIV, call)}:${colOf(UDIV, call)}`, '--verify', 'tests', '--json'], { env });
      t.is(run.exitCode, 0, run.stdout.slice(0, 3000));
      t.is(run.json.verification.status, 'passed');
      const after = await repo.git('show', `${run.json.git.commit}:src/udiv128.rs`);
      t.true(after.includes('let y: u128 = 156927543384667019095894735580191660403;'), after);
      t.false(after.includes(call));

      const operand = 'high(5_000_000_000_000)';
      const shifted = await tug(repo.root, ['run', 'inline', '--at', `src/lib.rs:${lineOf(LIB, operand)}:${colOf(LIB, operand)}`, '--verify', 'tests', '--json'], { env });
      t.is(shifted.exitCode, 0, shifted.stdout.slice(0, 3000));
      t.is(shifted.json.verification.status, 'passed');
      t.true((await repo.git('show', `${shifted.json.git.commit}:src/lib.rs`)).includes('high(1 << 50) + (5_000_000_000_000_u64 >> 40)'));

      // Used once, the literal is pasted in place of `x`: it carries the parameter's type as a suffix.
      const once = 'low(5_000_000_000_000)';
      const pasted = await tug(repo.root, ['run', 'inline', '--at', `src/lib.rs:${lineOf(LIB, once)}:${colOf(LIB, once)}`, '--verify', 'tests', '--json'], { env });
      t.is(pasted.exitCode, 0, pasted.stdout.slice(0, 3000));
      t.is(pasted.json.verification.status, 'passed');
      t.true((await repo.git('show', `${pasted.json.git.commit}:src/lib.rs`)).includes('(5_000_000_000_000_u64 >> 8) as u32'));
    });
  } finally {
    await repo.cleanup();
  }
});
