// Sound Rust renames on fixtures/rust/sound: std macros expanded, same-named fields of other types left alone, unsure
// occurrences reported (and renamed with --include-unsure), doc tests, trait methods and re-exports; cargo test after each.
// The first test is the cold CLI path of a Rust rename; the others share one copy of the fixture behind one daemon
// (helpers/warm-fixture.ts: rust-analyzer indexes it once, each case starts from the committed fixture).
import test from 'ava';
import { tug } from './helpers/cli.js';
import { fixtureRepo } from './helpers/rename-cases.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { warmFixtures, type WarmFixture } from './helpers/warm-fixture.js';

type Json = Record<string, any>;

const fixtures = warmFixtures();
test.after.always(() => fixtures.stopAll());
fixtures.plan('rust', 'sound', 3);

async function renamedIn(repo: WarmFixture['repo'], env: Record<string, string>, at: string, to: string, extra: string[] = []) {
  const run = await tug(repo.root, ['rename', at, to, '--verify', 'tests', '--json', ...extra], { env });
  const show = (file: string) => repo.git('show', `${run.json?.git?.commit}:${file}`);
  return { run, json: run.json as Json, show };
}

/** A rename on a cold CLI, on a copy of its own. */
async function renamed(at: string, to: string, extra: string[] = []) {
  const repo = await fixtureRepo('rust', 'sound');
  return { repo, ...(await renamedIn(repo, {}, at, to, extra)) };
}

test('a field read only inside write! is renamed there: rust-analyzer expands std macros', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const { repo, run, json, show } = await renamed('src/stats.rs:6:5', 'count');
  t.is(run.exitCode, 0, run.stdout);
  t.is(json.verification.status, 'passed');
  const stats = await show('src/stats.rs');
  t.true(stats.includes('write!(f, "{} hits", self.count)'), stats);
  t.false(/\bhits\b(?!")/.test(stats.replace('"{} hits"', '').replace('"0 hits"', '')), stats);
  t.is(json.unsure, undefined);
  t.false(json.warnings.some((w: Json) => w.code === 'StdSourcesMissing'), JSON.stringify(json.warnings));
  await repo.cleanup();
});

test('renaming Span.pre: macros, shorthand, patterns, doc tests; Label.pre untouched; unsure renamed only with --include-unsure', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  await fixtures.use('rust', 'sound', async ({ repo, env }) => {
    const impact = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/shapes.rs:12:9', '--to', 'start', '--json'], { env });
    t.is(impact.exitCode, 0, impact.stdout);
    const left = (impact.json.unsure as Json[]).map((u) => `${u.file}:${u.line} ${u.reason} ${u.macro ?? ''} ${u.renamed}`);
    t.deepEqual(left, ['src/lib.rs:15 macro_definition start_of false', 'src/lib.rs:27 cfg_inactive  false']);
    const refs = (impact.json.references as Json[]).map((r) => `${r.location.file}:${r.location.line}`);
    t.true(refs.includes('src/lib.rs:5') && refs.includes('src/shapes.rs:7'), `doc tests: ${refs.join(' ')}`);
    t.false(refs.includes('src/shapes.rs:53'), 'Label.pre inside write! is another field');
    t.true(impact.json.warnings.some((w: Json) => w.code === 'AttributeStringNotRenamed' && w.location.line === 35));

    const { run, json, show } = await renamedIn(repo, env, 'src/shapes.rs:12:9', 'start', ['--include-unsure']);
    t.is(run.exitCode, 0, run.stdout);
    t.is(json.verification.status, 'passed');
    t.deepEqual((json.unsure as Json[]).map((u) => u.renamed), [true, true]);
    const shapes = await show('src/shapes.rs');
    t.true(shapes.includes('Self { start: pre, end }'), 'shorthand expression');
    t.true(shapes.includes('let Span { start: pre, end } = self;'), 'shorthand pattern');
    t.true(shapes.includes('write!(f, "{}..{}", self.start, self.end)'), 'write! of Span');
    t.true(shapes.includes('write!(f, "[{}]", self.pre)'), 'write! of Label is left alone');
    t.true(shapes.includes('matches!(s, Span { start: 0, .. })') && shapes.includes('vec![spans[0].start'), 'matches! and vec!');
    t.true(shapes.includes('/// assert_eq!(s.start, 2);'), 'doc test');
    t.true(shapes.includes('#[doc(alias = "pre")]'), 'attribute strings are reported, not changed');
    const lib = await show('src/lib.rs');
    t.true(lib.includes('//! assert_eq!(Span::new(1, 4).start, 1);') && lib.includes('$s.start') && lib.includes('span.start\n}'), lib);
  });
});

test('a trait method is renamed in every impl across files; a same-named inherent method is not', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  await fixtures.use('rust', 'sound', async ({ repo, env }) => {
    const { run, json, show } = await renamedIn(repo, env, 'src/describe.rs:5:8', 'summary');
    t.is(run.exitCode, 0, run.stdout);
    t.is(json.verification.status, 'passed');
    const describe = await show('src/describe.rs');
    t.is(describe.match(/fn summary\(&self\)/g)?.length, 3, describe);
    t.true(describe.includes('pub fn describe(&self) -> String {\n        String::from("plain")') && describe.includes('Plain.describe()'), describe);
    t.true((await show('src/lib.rs')).includes('span.summary()'));
  });
});

test('a struct renamed through its pub use re-export and in doc-test paths', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  await fixtures.use('rust', 'sound', async ({ repo, env }) => {
    const { run, json, show } = await renamedIn(repo, env, 'src/shapes.rs:11:12', 'Interval');
    t.is(run.exitCode, 0, run.stdout);
    t.is(json.verification.status, 'passed');
    const lib = await show('src/lib.rs');
    t.true(lib.includes('pub use shapes::Interval;') && lib.includes('//! use sound::Interval;'), lib);
    t.true((await show('src/shapes.rs')).includes('/// let s = sound::Interval::new(2, 5);'));
  });
});
