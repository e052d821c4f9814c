// Defects the sweep over real crates found in Rust rename and change-signature (docs/QUALITY.md), each on a small
// crate written here that has the same shape, run through the real CLI with cargo and rust-analyzer: every result tug
// calls ok passes the crate's own tests, and what it cannot do it refuses with a reason.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const GUARD_MS = 900_000;
const MANIFEST = '[package]\nname = "sg"\nversion = "0.1.0"\nedition = "2018"\n';

// scopeguard's shape: an exported macro calls the crate's fn through `$crate::`; itoa's: a macro of the module
// implements a sealed trait for several types and reads a const of the module.
const LIB = `#[macro_export]
macro_rules! defer {
    ($e:expr) => {
        let _guard = $crate::guard((), |()| $e);
    };
}

pub struct Guard<T, F: FnOnce(T)> {
    v: Option<T>,
    f: Option<F>,
}

pub fn guard<T, F: FnOnce(T)>(v: T, dropfn: F) -> Guard<T, F> {
    Guard { v: Some(v), f: Some(dropfn) }
}

impl<T, F: FnOnce(T)> Drop for Guard<T, F> {
    fn drop(&mut self) {
        (self.f.take().unwrap())(self.v.take().unwrap())
    }
}

const LUT: &[u8] = b"0123456789";

mod private {
    pub trait Sealed {
        fn digit(self) -> u8;
    }
}

pub trait Digit: private::Sealed {}

macro_rules! impl_digit {
    ($($t:ty),*) => {$(
        impl private::Sealed for $t {
            fn digit(self) -> u8 {
                LUT[self as usize % 10]
            }
        }
        impl Digit for $t {}
    )*};
}

impl_digit!(u8, u32);

pub fn last_digit<D: Digit>(d: D) -> u8 {
    d.digit()
}

pub fn double(x: u8) -> u8 {
    x * 2
}

pub fn doubled(xs: &[u8]) -> Vec<u8> {
    xs.iter().copied().map(double).collect()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    #[test]
    fn deferred_and_digits() {
        let c = Cell::new(0);
        {
            defer!(c.set(c.get() + 1));
        }
        assert_eq!(c.get(), 1);
        assert_eq!(super::last_digit(13u32), b'3');
        assert_eq!(super::doubled(&[1, 2]), vec![2, 4]);
    }
}
`;

async function crate(t: any) {
  if (!(await requireRustToolchain(t))) return null;
  t.timeout(GUARD_MS);
  return makeRepo({ 'Cargo.toml': MANIFEST, 'src/lib.rs': LIB });
}

test('rename reaches `$crate::name` in a macro_rules! body and the names a module-local macro reads (scopeguard, itoa)', async (t) => {
  const repo = await crate(t);
  if (!repo) return;
  try {
    for (const [at, to, expect] of [
      ['src/lib.rs:13:8', 'make_guard', '$crate::make_guard((), |()| $e)'],
      ['src/lib.rs:23:7', 'TABLE', 'TABLE[self as usize % 10]'],
      ['src/lib.rs:25:5', 'sealed', 'impl sealed::Sealed for $t'],
    ] as const) {
      const run = await tug(repo.root, ['rename', at, to, '--verify', 'tests', '--json']);
      t.is(run.exitCode, 0, `${at} → ${to}: ${run.stdout}`);
      t.deepEqual(run.json.unsure ?? [], [], `${at}: nothing left unsure`);
      t.is(run.json.verification.status, 'passed');
      const after = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
      t.true(after.includes(expect), after);
    }
  } finally {
    await repo.cleanup();
  }
});

test('change-signature rewrites the call in the macro body; a fn passed as a value is refused unless forced', async (t) => {
  const repo = await crate(t);
  if (!repo) return;
  try {
    const params = JSON.stringify([{ name: 'v' }, { name: 'dropfn' }, { name: 'tag', type: 'u8', value: '0' }]);
    const run = await tug(repo.root, ['run', 'change-signature', '--at', 'src/lib.rs:13:8', '--params', params, '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.true((await repo.git('show', `${run.json.git.commit}:src/lib.rs`)).includes('$crate::guard((), |()| $e, 0)'));

    const add = JSON.stringify([{ name: 'x' }, { name: 'by', type: 'u8', value: '2' }]);
    const refused = await tug(repo.root, ['run', 'change-signature', '--at', 'src/lib.rs:50:8', '--params', add, '--json']);
    t.is(refused.exitCode, 4, refused.stdout);
    t.is(refused.json.error.code, 'UnsafeRefactor');
    t.is(refused.json.error.details.reason, 'value use');
    t.deepEqual(refused.json.error.details.uses, ['src/lib.rs:55:28']);
  } finally {
    await repo.cleanup();
  }
});

// strsim is edition 2015, where `use strsim::hamming;` in a doc test is read from the crate root: the doc-test calls
// were left unrenamed (listed unsure) and cargo test failed unless --include-unsure was given.
test('rename reaches the calls of an edition-2015 doc test that imports the fn by the crate name', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const lib = `/// Counts the positions where the strings differ.
///
/// \`\`\`
/// use dt::hamming;
///
/// assert_eq!(3, hamming("hamming", "hammers"));
/// \`\`\`
pub fn hamming(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).filter(|(x, y)| x != y).count()
}
`;
  const repo = await makeRepo({ 'Cargo.toml': '[package]\nname = "dt"\nversion = "0.1.0"\n', 'src/lib.rs': lib });
  try {
    const run = await tug(repo.root, ['rename', 'src/lib.rs:8:8', 'distance', '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.deepEqual(run.json.unsure ?? [], []);
    t.is(run.json.verification.status, 'passed');
    t.true((await repo.git('show', `${run.json.git.commit}:src/lib.rs`)).includes('assert_eq!(3, distance("hamming", "hammers"));'));
  } finally {
    await repo.cleanup();
  }
});
