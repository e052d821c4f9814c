// The Rust adapter's pure parts: UTF-16 ↔ byte positions, WorkspaceEdit conversion, identifier rules, the macro scanner, cargo's JSON.
import test from 'ava';
import { utf8 } from '../lib/core/text.js';
import { oldVersionWarning } from '../lib/rust/discovery.js';
import { assertRustIdentifier } from '../lib/rust/identifiers.js';
import { scanRust } from '../lib/rust/macro-calls.js';
import { lspPositionOfOffset, offsetOfLspPosition } from '../lib/rust/positions.js';
import { convertWorkspaceEdit, type EditSources } from '../lib/rust/workspace-edit.js';
import { parseCargoOutput } from '../lib/verify/cargo.js';

const line = 'let s = "é😀"; let total = 1;\n';

test('UTF-16 characters become UTF-8 byte offsets and back, across multi-byte and astral characters', (t) => {
  const bytes = utf8(`fn main() {}\n${line}`);
  const startOfTotal = Buffer.byteLength(`fn main() {}\nlet s = "é😀"; let `);
  // "é" is one UTF-16 unit (2 bytes), "😀" two units (4 bytes): UTF-16 column 19 is byte column 22.
  const character = 'let s = "é😀"; let '.length;
  t.is(character, 19);
  t.is(offsetOfLspPosition(bytes, { line: 1, character }, 'utf-16'), startOfTotal);
  t.deepEqual(lspPositionOfOffset(bytes, startOfTotal, 'utf-16'), { line: 1, character: 19 });
  t.deepEqual(lspPositionOfOffset(bytes, startOfTotal, 'utf-8'), { line: 1, character: 22 });
  t.is(offsetOfLspPosition(bytes, { line: 1, character: 22 }, 'utf-8'), startOfTotal);
  t.is(offsetOfLspPosition(bytes, { line: 1, character: 999 }, 'utf-16'), bytes.length - 1, 'past the end of a line is its end');
  t.is(offsetOfLspPosition(bytes, { line: 9, character: 0 }, 'utf-16'), bytes.length, 'past the last line is the end of the file');
});

test('CRLF line ends do not shift LSP columns', (t) => {
  const bytes = utf8('fn a() {}\r\nfn b() {}\r\n');
  t.is(offsetOfLspPosition(bytes, { line: 1, character: 3 }, 'utf-16'), 14);
  t.is(offsetOfLspPosition(bytes, { line: 0, character: 50 }, 'utf-16'), 9);
});

function sources(files: Record<string, string>): EditSources {
  return {
    encoding: 'utf-16',
    locate: (uri) => {
      const rel = uri.replace('file:///ws/', '');
      if (!uri.startsWith('file:///ws/')) return { skip: 'outside-workspace', where: uri.replace('file://', '') };
      if (rel.startsWith('target/')) return { skip: 'target-dir', where: rel };
      return { path: rel };
    },
    bytes: (p) => (p in files ? utf8(files[p]!) : undefined),
    filesUnder: (dir) => Object.keys(files).filter((f) => f.startsWith(`${dir}/`)).sort(),
  };
}

test('documentChanges and changes both become anchored edits; moves follow; outside and target/ edits are skipped with a warning', (t) => {
  const files = { 'src/lib.rs': `mod util;\n${line}`, 'src/util.rs': 'pub fn total() {}\n', 'src/deep/mod.rs': '', 'src/deep/x.rs': '' };
  const range = (l: number, c: number, n: number) => ({ start: { line: l, character: c }, end: { line: l, character: c + n } });
  const converted = convertWorkspaceEdit(
    {
      changes: { 'file:///ws/src/util.rs': [{ range: range(0, 7, 5), newText: 'sum' }] },
      documentChanges: [
        { textDocument: { uri: 'file:///ws/src/lib.rs', version: null }, edits: [{ range: range(1, 19, 5), newText: 'sum' }] },
        { textDocument: { uri: 'file:///ws/target/debug/build/out.rs', version: null }, edits: [{ range: range(0, 0, 1), newText: 'x' }] },
        { textDocument: { uri: 'file:///home/me/.cargo/registry/dep.rs', version: null }, edits: [{ range: range(0, 0, 1), newText: 'x' }] },
        { kind: 'rename', oldUri: 'file:///ws/src/util.rs', newUri: 'file:///ws/src/sums.rs' },
        { kind: 'rename', oldUri: 'file:///ws/src/deep', newUri: 'file:///ws/src/shallow' },
      ],
    },
    sources(files),
  );
  t.deepEqual(
    converted.edits.map((e) => [e.file, e.span, e.old_text, e.new_text]),
    [
      ['src/util.rs', { start: 7, end: 12 }, 'total', 'sum'],
      ['src/lib.rs', { start: 10 + Buffer.byteLength('let s = "é😀"; let '), end: 15 + Buffer.byteLength('let s = "é😀"; let ') }, 'total', 'sum'],
    ],
  );
  t.deepEqual(converted.moves, [
    { from: 'src/util.rs', to: 'src/sums.rs' },
    { from: 'src/deep/mod.rs', to: 'src/shallow/mod.rs' },
    { from: 'src/deep/x.rs', to: 'src/shallow/x.rs' },
  ]);
  t.deepEqual(converted.warnings.map((w) => w.code), ['SkippedOutsideWorkspace', 'SkippedGeneratedFile']);
});

test('a file creation or deletion in a rename is refused, not half-applied', (t) => {
  const error = t.throws(() => convertWorkspaceEdit({ documentChanges: [{ kind: 'delete', uri: 'file:///ws/src/lib.rs' }] }, sources({ 'src/lib.rs': '' })));
  t.is((error as { code?: string }).code, 'UnsupportedOperation');
});

test('new names follow Rust: keywords need r#, some keywords never work, `_` and digits-first are refused, lifetimes stay lifetimes', (t) => {
  for (const ok of ['transform', '_private', 'Tally', 'r#match', 'r#type', 'größe']) t.notThrows(() => assertRustIdentifier(ok), ok);
  for (const bad of ['match', 'fn', 'Self', 'r#self', 'r#crate', '_', '1st', 'two words', 'a-b', '']) {
    const error = t.throws(() => assertRustIdentifier(bad), undefined, bad);
    t.is((error as { code?: string }).code, 'InvalidArgument', bad);
  }
  t.notThrows(() => assertRustIdentifier("'b", "'a"));
  t.throws(() => assertRustIdentifier('b', "'a"));
});

test('the scanner finds macro calls and identifiers, skipping strings, raw strings, chars, lifetimes and nested comments', (t) => {
  const text = [
    'macro_rules! twice { ($e:expr) => { helper($e) + helper($e) }; }',
    "fn f<'a>(s: &'a str) -> char { let _ = \"helper\"; let _ = r#\"helper\"#; /* helper /* nested */ helper */ 'h' }",
    'fn g() { println!("{}", helper(1)); let v = vec![helper(2)]; assert!(x != y); }',
  ].join('\n');
  const { identifiers, macros } = scanRust(text);
  const helpers = identifiers.filter((i) => i.text === 'helper');
  t.is(helpers.length, 4, 'two in the macro_rules body, one in println!, one in vec!');
  t.deepEqual(macros.map((m) => [m.name, m.definition]), [['macro_rules', true], ['println', false], ['vec', false], ['assert', false]]);
  const body = macros[0]!;
  t.true(helpers.slice(0, 2).every((h) => h.start > body.start && h.end <= body.end));
  t.is(text.slice(macros[1]!.start, macros[1]!.end), 'println!("{}", helper(1))');
});

test("cargo's JSON messages become structured errors and readable output", (t) => {
  const message = {
    reason: 'compiler-message',
    message: {
      level: 'error',
      message: 'cannot find function `process_data` in this scope',
      rendered: 'error[E0425]: cannot find function `process_data` in this scope\n --> src/lib.rs:21:17\n',
      spans: [{ file_name: 'src/lib.rs', line_start: 21, column_start: 17, is_primary: true }],
    },
  };
  const out = ['    Checking simple v0.1.0', JSON.stringify(message), JSON.stringify({ reason: 'build-finished', success: false })].join('\n');
  const parsed = parseCargoOutput(out, '/sandbox', 'crates/simple');
  t.deepEqual(parsed.errors, [{ file: 'crates/simple/src/lib.rs', line: 21, col: 17, message: 'cannot find function `process_data` in this scope' }]);
  t.true(parsed.text.includes('Checking simple'));
  t.true(parsed.text.includes('error[E0425]'));
  t.false(parsed.text.includes('build-finished'));
});

test('a rust-analyzer built before 2024 is reported; current ones and undated builds are not', (t) => {
  t.is(oldVersionWarning('rust-analyzer 0.3.1500-standalone (a1b2c3d 2023-05-08)')?.code, 'OldRustAnalyzer');
  t.is(oldVersionWarning('rust-analyzer 1.85.1 (4eb1612 2025-03-15)'), null);
  t.is(oldVersionWarning('rust-analyzer 1.85.1'), null);
});
