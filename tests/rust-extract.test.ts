// extract-function and extract-variable on shapes where rust-analyzer's assists went wrong in the sweep
// (fixtures/rust/extract, real rust-analyzer and cargo test): a macro statement whose argument reads a parameter
// taken by reference (shlex: `*assert_eq!(…)` was written), an elided lifetime the new fn's parameters make
// ambiguous (percent-encoding: E0106), and --name kept on a method and a variable (percent-encoding lost it).
// The tests share one copy of the fixture behind one daemon (helpers/warm-fixture.ts: rust-analyzer indexes it once,
// each case starts from the committed fixture); rust-extract-mut and rust-inline-call keep these operations' cold path.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { warmFixtures } from './helpers/warm-fixture.js';

const GUARD_MS = 900_000;
const fixtures = warmFixtures();
test.after.always(() => fixtures.stopAll());
fixtures.plan('rust', 'extract', 3);

test('extract-function: a macro statement keeps its call (no *assert_eq!), an ambiguous elided lifetime is named, --name stays on a method; cargo test passes', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  await fixtures.use('rust', 'extract', async ({ repo, env }) => {
    const cases: Array<[string, string, string[]]> = [
      ['src/lib.rs:63:17-63:46', 'check_line', ['                check_line(&lexer);\n', '    fn check_line(lexer: &Lexer<\'_>) {\n        assert_eq!(lexer.line_no, 4);\n    }\n']],
      ['src/lib.rs:38:5-38:35', 'fresh_copy', ['    let mut cloned = fresh_copy(iter);\n', "fn fresh_copy<'a>(iter: &mut slice::Iter<'a, u8>) -> slice::Iter<'a, u8> {\n"]],
      ['src/lib.rs:31:9-32:46', 'chunk_and_mask', ['        let (chunk, mask) = self.chunk_and_mask(byte);\n', '    const fn chunk_and_mask(&self, byte: u8) -> (u32, u32) {\n']],
    ];
    for (const [range, name, expected] of cases) {
      const run = await tug(repo.root, ['run', 'extract-function', '--range', range, '--name', name, '--verify', 'tests', '--json'], { env });
      t.is(run.exitCode, 0, run.stdout);
      t.is(run.json.verification.status, 'passed', run.stdout);
      const text = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
      for (const line of expected) t.true(text.includes(line), `${name}: ${line}\n---\n${text}`);
      t.false(text.includes('fun_name') || text.includes('*assert_eq!'), text);
    }
  });
});

test('extract-variable --name binds the call and uses it; cargo test passes', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  await fixtures.use('rust', 'extract', async ({ repo, env }) => {
    const run = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/lib.rs:46:11-46:27', '--name', 'sweep_v', '--verify', 'tests', '--json'], { env });
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.verification.status, 'passed', run.stdout);
    const text = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
    t.true(text.includes('    let sweep_v = input.as_bytes();\n    count(sweep_v)\n'), text);
  });
});

// Found on shlex: `let res = shl.by_ref().collect();` inlined past `if shl.had_error`, which the call sets.
test('inline of a value with effects is refused past code that runs before its use; into the next expression it is done', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  await fixtures.use('rust', 'extract', async ({ repo, env }) => {
    const refused = await tug(repo.root, ['inline', '--at', 'src/lib.rs:81:9', '--json'], { env });
    t.is(refused.json?.error?.code, 'UnsafeRefactor', refused.stdout);
    t.like(refused.json.error.details, { reason: 'value with effects moved past other code', line: 82 });
    t.is(await repo.git('branch', '--list', 'tug/*'), '');

    const done = await tug(repo.root, ['inline', '--at', 'src/lib.rs:86:9', '--verify', 'tests', '--json'], { env });
    t.is(done.exitCode, 0, done.stdout);
    t.is(done.json.verification.status, 'passed', done.stdout);
    t.true((await repo.git('show', `${done.json.git.commit}:src/lib.rs`)).includes('    x.wrapping_mul(2) + 1\n'));
  });
});
