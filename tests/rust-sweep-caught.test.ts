// Results the Rust sweep's verification caught on real crates (itoa, percent-encoding, strsim; docs/QUALITY.md), each
// on a small crate of the same shape run through the real CLI with rust-analyzer and cargo: tug now does the change
// so that the crate's tests pass, or refuses it up front with a reason naming the place, never a red result.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const GUARD_MS = 900_000;
const MANIFEST = '[package]\nname = "cs"\nversion = "0.1.0"\nedition = "2018"\n';

// percent-encoding's shape: a const fn called in a static_assert! whose calls land in an array length, which
// rust-analyzer expands but does not analyse; itoa's: a test macro's body calls a method of the crate.
const LIB = `pub struct Set {
    mask: u32,
}

impl Set {
    pub const fn contains(&self, b: u8) -> bool {
        self.mask & (1 << b) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }
}

pub const LOW: Set = Set { mask: 0b11 };

macro_rules! static_assert {
    ($( $bool: expr, )+) => {
        fn _static_assert() {
            $(
                let _ = std::mem::transmute::<[u8; $bool as usize], u8>;
            )+
        }
    }
}

static_assert! {
    LOW.contains(0),
    !LOW.contains(5),
}

pub struct Buffer {
    last: u8,
}

impl Buffer {
    pub fn new() -> Buffer {
        Buffer { last: 0 }
    }

    pub fn format(&mut self, i: u8) -> String {
        self.last = i;
        i.to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sets() {
        assert!(!super::LOW.is_empty() && Vec::<u8>::new().is_empty());
    }
}
`;

const TESTS = `macro_rules! test {
    ($($name:ident($value:expr, $expected:expr))*) => {
        $(
            #[test]
            fn $name() {
                let mut buffer = cs::Buffer::new();
                let s = buffer.format($value);
                assert_eq!(s, $expected);
            }
        )*
    }
}

test! {
    one(1u8, "1")
    two(2u8, "2")
}
`;

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

test('change-signature refuses a call inside a macro it cannot rewrite, naming the place; elsewhere in macros it rewrites', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await makeRepo({ 'Cargo.toml': MANIFEST, 'src/lib.rs': LIB, 'tests/t.rs': TESTS });
  try {
    const extra = (keep: string) => JSON.stringify([{ name: keep }, { name: 'extra', type: 'u8', value: '0' }]);
    const contains = await tug(repo.root, ['run', 'change-signature', '--at', `src/lib.rs:${lineOf(LIB, 'const fn contains')}:18`, '--params', extra('b'), '--json']);
    t.is(contains.exitCode, 4, contains.stdout);
    t.is(contains.json.error.code, 'UnsafeRefactor');
    t.is(contains.json.error.details.reason, 'call not rewritten');
    const assertLine = lineOf(LIB, 'LOW.contains(0)');
    t.deepEqual(contains.json.error.details.places, [`src/lib.rs:${assertLine}:9`, `src/lib.rs:${assertLine + 1}:10`]);
    t.true(contains.json.error.message.includes(`src/lib.rs:${assertLine}:9 inside static_assert!`), contains.json.error.message);

    const format = await tug(repo.root, ['run', 'change-signature', '--at', `src/lib.rs:${lineOf(LIB, 'fn format')}:12`, '--params', extra('i'), '--json']);
    t.is(format.exitCode, 4, format.stdout);
    t.is(format.json.error.details.reason, 'call not rewritten');
    t.deepEqual(format.json.error.details.places, [`tests/t.rs:${lineOf(TESTS, 'buffer.format')}:32`]);
    t.is(await repo.git('branch', '--list', 'tug/*'), '');

    // Forced, it goes on and lists the places as unsure (verification then shows what they do).
    const forced = await tug(repo.root, ['run', 'change-signature', '--at', `src/lib.rs:${lineOf(LIB, 'fn format')}:12`, '--params', extra('i'), '--force', '--verify', 'none', '--json']);
    t.is(forced.exitCode, 0, forced.stdout);
    t.deepEqual(forced.json.unsure.map((u: any) => [u.file, u.reason, u.macro]), [['tests/t.rs', 'macro_definition', 'test']]);

    // A call in assert! that rust-analyzer maps is rewritten; Vec's is_empty beside it is another method, left alone.
    const empty = await tug(repo.root, ['run', 'change-signature', '--at', `src/lib.rs:${lineOf(LIB, 'fn is_empty')}:12`, '--params', JSON.stringify([{ name: 'strict', type: 'bool', value: 'true' }]), '--verify', 'tests', '--json']);
    t.is(empty.exitCode, 0, empty.stdout);
    t.is(empty.json.verification.status, 'passed');
    t.true((await repo.git('show', `${empty.json.git.commit}:src/lib.rs`)).includes('assert!(!super::LOW.is_empty(true) && Vec::<u8>::new().is_empty());'));
  } finally {
    await repo.cleanup();
  }
});
