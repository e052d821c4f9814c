// inline of a Rust call (rust-analyzer's inline_call) on the shapes the sweep over real crates found, through the real
// CLI with cargo and rust-analyzer: scopeguard's `guard(v, f)`, whose declared return type alone fixed a generic
// parameter of the body (kept as the `let`'s annotation), and fns that leave their body early with `?` or `return`,
// which pasted into the caller would return from it (refused before anything is written).
// The first test is inline's cold CLI path; the two refusals go through one private daemon (one rust-analyzer start).
import test from 'ava';
import { annotationFor, declaredReturnType, fnBody } from '../lib/rust/inline-call.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { withDaemon } from './helpers/warm-fixture.js';

const GUARD_MS = 900_000;
const MANIFEST = '[package]\nname = "sg"\nversion = "0.1.0"\nedition = "2018"\n';

// scopeguard's shape: the strategy is a type parameter of `with_strategy` that only `guard`'s return type names.
const LIB = `use std::marker::PhantomData;

pub trait Strategy {
    fn should_run() -> bool;
}

pub enum Always {}

impl Strategy for Always {
    fn should_run() -> bool {
        true
    }
}

pub enum Never {}

impl Strategy for Never {
    fn should_run() -> bool {
        false
    }
}

pub struct ScopeGuard<T, F, S = Always>
where
    F: FnOnce(T),
    S: Strategy,
{
    value: Option<T>,
    dropfn: Option<F>,
    strategy: PhantomData<S>,
}

impl<T, F, S> ScopeGuard<T, F, S>
where
    F: FnOnce(T),
    S: Strategy,
{
    pub fn with_strategy(v: T, dropfn: F) -> ScopeGuard<T, F, S> {
        ScopeGuard { value: Some(v), dropfn: Some(dropfn), strategy: PhantomData }
    }
}

impl<T, F, S> Drop for ScopeGuard<T, F, S>
where
    F: FnOnce(T),
    S: Strategy,
{
    fn drop(&mut self) {
        if S::should_run() {
            (self.dropfn.take().unwrap())(self.value.take().unwrap())
        }
    }
}

pub fn guard<T, F>(v: T, dropfn: F) -> ScopeGuard<T, F, Always>
where
    F: FnOnce(T),
{
    ScopeGuard::with_strategy(v, dropfn)
}

fn first_digit(s: &str) -> Option<u32> {
    let c = s.chars().next()?;
    c.to_digit(10)
}

pub fn digit_plus_one(s: &str) -> Option<u32> {
    let d = first_digit(s).unwrap_or(0);
    Some(d + 1)
}

fn clamp(x: i32) -> i32 {
    if x < 0 {
        return 0;
    }
    x
}

pub fn clamped_twice_plus_one(x: i32) -> i32 {
    let y = clamp(x);
    y * 2 + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn runs_on_drop() {
        let drops = Cell::new(0);
        let value = guard((), |()| drops.set(drops.get() + 1));
        let outer = guard(value, |_| drops.set(drops.get() + 10));
        drop(outer);
        assert_eq!(drops.get(), 11);
    }

    #[test]
    fn early_exits() {
        assert_eq!(digit_plus_one(""), Some(1));
        assert_eq!(digit_plus_one("7"), Some(8));
        assert_eq!(clamped_twice_plus_one(-4), 1);
    }
}
`;

const lineOf = (needle: string) => LIB.split('\n').findIndex((l) => l.includes(needle)) + 1;
const colOf = (needle: string, word: string) => LIB.split('\n')[lineOf(needle) - 1]!.indexOf(word) + 1;

test('inline of scopeguard`s guard(v, f) keeps the callee`s return type on the let, and the crate`s tests pass', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await makeRepo({ 'Cargo.toml': MANIFEST, 'src/lib.rs': LIB });
  try {
    const at = `src/lib.rs:${lineOf('let outer = guard(')}:${colOf('let outer = guard(', 'guard(')}`;
    const run = await tug(repo.root, ['run', 'inline', '--at', at, '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.verification.status, 'passed');
    const after = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
    t.true(after.includes('let outer: ScopeGuard<_, _, Always> = {'), after);
    t.true(after.includes('ScopeGuard::with_strategy(value, dropfn)'), after);
  } finally {
    await repo.cleanup();
  }
});

test('inline of a fn that leaves its body with ? or return is refused: the exit would return from the caller', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await makeRepo({ 'Cargo.toml': MANIFEST, 'src/lib.rs': LIB });
  try {
    await withDaemon(repo.root, async (env) => {
      const head = await repo.git('rev-parse', 'HEAD');
      for (const [needle, word, exit] of [
        ['let d = first_digit(', 'first_digit(', '?'],
        ['let y = clamp(', 'clamp(', 'return'],
      ] as const) {
        const at = `src/lib.rs:${lineOf(needle)}:${colOf(needle, word)}`;
        const run = await tug(repo.root, ['run', 'inline', '--at', at, '--verify', 'tests', '--json'], { env });
        t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
        t.is(run.json.error.details.reason, 'early return in callee');
        t.true(run.json.error.message.includes(`(\`${exit}\`)`), run.json.error.message);
      }
      t.is(await repo.git('rev-parse', 'HEAD'), head);
      t.is(await repo.git('branch', '--list', 'tug/*'), '');
    });
  } finally {
    await repo.cleanup();
  }
});

test('the annotation: generics become _, what carries no information or cannot be written at the call is left out', (t) => {
  const sig = 'pub fn guard<T, F>(v: T, dropfn: F) -> ScopeGuard<T, F, Always>\nwhere\n    F: FnOnce(T),\n{\n    x\n}';
  const ret = declaredReturnType(sig, sig.indexOf('guard'));
  t.is(ret, 'ScopeGuard<T, F, Always>');
  t.is(annotationFor(ret, ['T', 'F']), 'ScopeGuard<_, _, Always>');
  t.is(annotationFor('Vec<T>', ['T']), 'Vec<_>');
  t.is(annotationFor("&'a str", ["'a"]), "&'_ str");
  t.is(annotationFor('T', ['T']), null);
  t.is(annotationFor('(T, &T)', ['T']), null);
  t.is(annotationFor('impl Fn(T) -> T', ['T']), null);
  t.is(annotationFor('Self', []), null);
  t.is(annotationFor('Option<T::Item>', ['T']), null);
  t.is(declaredReturnType('fn f(x: Vec<u8>) { }', 3), '');
  t.is(declaredReturnType('fn f<F: Fn() -> u8>(f: F) -> Box<dyn Fn() -> u8> where F: Copy { }', 3), 'Box<dyn Fn() -> u8>');
  t.is(fnBody('fn f() -> u8 { let s = "?}"; /* return */ 1 }', 3)?.trim(), 'let s =     ;              1');
});
