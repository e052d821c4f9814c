// Results the Rust sweep's verification caught on real crates (itoa, percent-encoding, strsim; docs/QUALITY.md), each
// on a small crate of the same shape run through the real CLI with rust-analyzer and cargo: tug now does the change
// so that the crate's tests pass, or refuses it up front with a reason naming the place, never a red result. A test
// that makes several calls on its crate makes them through one private daemon (rust-analyzer indexes the crate once).
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { withDaemon } from './helpers/warm-fixture.js';

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
    await withDaemon(repo.root, async (env) => {
      const extra = (keep: string) => JSON.stringify([{ name: keep }, { name: 'extra', type: 'u8', value: '0' }]);
      const contains = await tug(repo.root, ['run', 'change-signature', '--at', `src/lib.rs:${lineOf(LIB, 'const fn contains')}:18`, '--params', extra('b'), '--json'], { env });
      t.is(contains.exitCode, 4, contains.stdout);
      t.is(contains.json.error.code, 'UnsafeRefactor');
      t.is(contains.json.error.details.reason, 'call not rewritten');
      const assertLine = lineOf(LIB, 'LOW.contains(0)');
      t.deepEqual(contains.json.error.details.places, [`src/lib.rs:${assertLine}:9`, `src/lib.rs:${assertLine + 1}:10`]);
      t.true(contains.json.error.message.includes(`src/lib.rs:${assertLine}:9 inside static_assert!`), contains.json.error.message);

      const format = await tug(repo.root, ['run', 'change-signature', '--at', `src/lib.rs:${lineOf(LIB, 'fn format')}:12`, '--params', extra('i'), '--json'], { env });
      t.is(format.exitCode, 4, format.stdout);
      t.is(format.json.error.details.reason, 'call not rewritten');
      t.deepEqual(format.json.error.details.places, [`tests/t.rs:${lineOf(TESTS, 'buffer.format')}:32`]);
      t.is(await repo.git('branch', '--list', 'tug/*'), '');

      // Forced, it goes on and lists the places as unsure (verification then shows what they do).
      const forced = await tug(repo.root, ['run', 'change-signature', '--at', `src/lib.rs:${lineOf(LIB, 'fn format')}:12`, '--params', extra('i'), '--force', '--verify', 'none', '--json'], { env });
      t.is(forced.exitCode, 0, forced.stdout);
      t.deepEqual(forced.json.unsure.map((u: any) => [u.file, u.reason, u.macro]), [['tests/t.rs', 'macro_definition', 'test']]);

      // A call in assert! that rust-analyzer maps is rewritten; Vec's is_empty beside it is another method, left alone.
      const empty = await tug(repo.root, ['run', 'change-signature', '--at', `src/lib.rs:${lineOf(LIB, 'fn is_empty')}:12`, '--params', JSON.stringify([{ name: 'strict', type: 'bool', value: 'true' }]), '--verify', 'tests', '--json'], { env });
      t.is(empty.exitCode, 0, empty.stdout);
      t.is(empty.json.verification.status, 'passed');
      t.true((await repo.git('show', `${empty.json.git.commit}:src/lib.rs`)).includes('assert!(!super::LOW.is_empty(true) && Vec::<u8>::new().is_empty());'));
    });
  } finally {
    await repo.cleanup();
  }
});

// percent-encoding's PercentEncode: the iterator's type borrows its input for 'a, and the extracted code stores into or
// returns from that field; rust-analyzer's signature left the references without 'a (E0621, or a return tied to
// `&mut self` that the next write to the field conflicts with).
const ENCODE = `pub struct Encode<'a> {
    bytes: &'a [u8],
    label: String,
}

impl<'a> Encode<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Encode { bytes, label: String::from("enc") }
    }

    pub fn label_len(&self) -> usize {
        let buf = vec![1u8, 2];
        let local: &[u8] = &buf[..];
        self.label.len() + local.len()
    }
}

impl<'a> Iterator for Encode<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if let Some((&first, remaining)) = self.bytes.split_first() {
            if first == b'%' {
                self.bytes = remaining;
                Some(&b"%"[..])
            } else {
                let (head, rest) = self.bytes.split_at(1);
                self.bytes = rest;
                Some(head)
            }
        } else {
            let all = self.bytes;
            self.bytes = &[][..];
            if all.is_empty() { None } else { Some(all) }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn splits() {
        let parts: Vec<&[u8]> = super::Encode::new(b"a%b").collect();
        assert_eq!(parts, vec![&b"a"[..], &b"%"[..], &b"b"[..]]);
        assert_eq!(super::Encode::new(b"").label_len(), 5);
    }
}
`;

test('extract-function in an impl whose type borrows for a lifetime gives the new method that lifetime where the field needs it', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await makeRepo({ 'Cargo.toml': MANIFEST, 'src/lib.rs': ENCODE });
  const range = (needle: string) => {
    const line = lineOf(ENCODE, needle);
    const col = ENCODE.split('\n')[line - 1]!.indexOf(needle) + 1;
    return `src/lib.rs:${line}:${col}-${line}:${col + needle.length}`;
  };
  try {
    await withDaemon(repo.root, async (env) => {
      for (const [selection, signature] of [
        ['self.bytes = remaining;', 'fn stored(&mut self, remaining: &\'a [u8]) {'],
        ['let (head, rest) = self.bytes.split_at(1);', 'fn stored(&mut self) -> (&\'a [u8], &\'a [u8]) {'],
        ['let all = self.bytes;', 'fn stored(&mut self) -> &\'a [u8] {'],
        // A borrow of a local stays elided: naming it 'a would ask the local to outlive the iterator.
        ['self.label.len() + local.len()', 'fn stored(&self, local: &[u8]) -> usize {'],
      ] as const) {
        const run = await tug(repo.root, ['run', 'extract-function', '--range', range(selection), '--name', 'stored', '--verify', 'tests', '--json'], { env });
        t.is(run.exitCode, 0, `${selection}: ${run.stdout.slice(0, 3000)}`);
        t.is(run.json.verification?.status, 'passed', selection);
        const after = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
        t.true(after.includes(signature), `${signature}\n---\n${after}`);
        await repo.git('branch', '-D', run.json.git.branch.replace(/^refs\/heads\//, ''));
      }
    });
  } finally {
    await repo.cleanup();
  }
});

// strsim's StringWrapper: a tuple struct whose private field the old module fills (`StringWrapper(a)`) and reads
// (`w.0`); moved, the field was private to the new module (E0423). It becomes pub(crate), as a named field does.
const WRAPPER = `use std::str::Chars;

struct StringWrapper<'a>(&'a str);

impl<'a, 'b> IntoIterator for &'a StringWrapper<'b> {
    type Item = char;
    type IntoIter = Chars<'b>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.chars()
    }
}

pub fn count<'a, I>(a: &'a I) -> usize
where
    &'a I: IntoIterator<Item = char>,
{
    a.into_iter().count()
}

pub fn chars(a: &str) -> usize {
    let w = StringWrapper(a);
    count(&w) + w.0.len() - a.len()
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts() {
        assert_eq!(super::chars("abc"), 3);
    }
}
`;

test('move-symbol of a tuple struct whose private field the old module fills makes the field pub(crate)', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await makeRepo({ 'Cargo.toml': MANIFEST, 'src/lib.rs': WRAPPER });
  try {
    const run = await tug(repo.root, ['run', 'move-symbol', '--at', `src/lib.rs:${lineOf(WRAPPER, 'struct StringWrapper')}:8`, '--destination', 'crate::wrapper', '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout.slice(0, 3000));
    t.is(run.json.verification.status, 'passed');
    const moved = await repo.git('show', `${run.json.git.commit}:src/wrapper.rs`);
    t.true(moved.includes("pub(crate) struct StringWrapper<'a>(pub(crate) &'a str);"), moved);
  } finally {
    await repo.cleanup();
  }
});
