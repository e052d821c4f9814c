// move-symbol for Rust with the real rust-analyzer and cargo, on a workspace written here: a library crate (`geom`,
// not published) used by a binary crate (`app`), and a published library (`pubcrate`). A fn moves into an existing
// `mod.rs` module and the other crate's imports follow; a struct moves with its impls into a new file declared in
// lib.rs; a fn a macro_rules! body names is refused (moved with keep_reexport, it is listed as unsure);
// a published public path is refused unless keep_reexport (an integration test keeps the old path); a test fn takes
// a #[cfg(test)] import along; a #[cfg] item is refused.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tug, TUG_BIN } from './helpers/cli.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const GUARD_MS = 900_000;
const lines = (...all: string[]) => `${all.join('\n')}\n`;

const WORKSPACE: Record<string, string> = {
  '.gitignore': 'target\n',
  'Cargo.toml': lines(
    '[workspace]',
    'members = ["geom", "app", "pubcrate"]',
    'resolver = "2"',
  ),
  'geom/Cargo.toml': lines(
    '[package]',
    'name = "geom"',
    'version = "0.1.0"',
    'edition = "2021"',
    'publish = false',
  ),
  'geom/src/lib.rs': lines(
    '//! Geometry.',
    'pub mod shapes;',
    'pub mod util;',
    '',
    'pub use shapes::Square;',
    '',
    '/// The area of a square of side `$x`.',
    '#[macro_export]',
    'macro_rules! square_of {',
    '    ($x:expr) => {',
    '        $crate::shapes::area_of($x)',
    '    };',
    '}',
  ),
  'geom/src/shapes.rs': lines(
    'use std::fmt;',
    '',
    '/// A square.',
    '#[derive(Debug, Clone, PartialEq)]',
    'pub struct Square {',
    '    pub side: f64,',
    '    scale: f64,',
    '}',
    '',
    'impl Square {',
    '    pub fn new(side: f64) -> Self {',
    '        Square { side, scale: 1.0 }',
    '    }',
    '',
    '    pub fn area(&self) -> f64 {',
    '        helper(self.side) * self.scale',
    '    }',
    '}',
    '',
    'impl fmt::Display for Square {',
    '    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {',
    '        write!(f, "Square({})", self.side)',
    '    }',
    '}',
    '',
    'fn helper(x: f64) -> f64 {',
    '    x * x',
    '}',
    '',
    'pub fn area_of(x: f64) -> f64 {',
    '    helper(x)',
    '}',
    '',
    'pub fn double(x: f64) -> f64 {',
    '    helper(x) * 2.0',
    '}',
    '',
    'pub fn describe(s: &Square) -> String {',
    '    format!("{} has area {}", s, s.area())',
    '}',
    '',
    '#[cfg(feature = "extra")]',
    'pub fn gated() -> u32 {',
    '    1',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    use super::*;',
    '',
    '    #[test]',
    '    fn areas() {',
    '        assert_eq!(double(1.0), 2.0);',
    '        assert_eq!(Square::new(2.0).area(), 4.0);',
    '        let s = Square {',
    '            side: 1.0,',
    '            scale: 2.0,',
    '        };',
    '        assert_eq!(s.area(), 2.0);',
    '        assert_eq!(crate::square_of!(3.0), 9.0);',
    '    }',
    '}',
  ),
  'geom/src/util/mod.rs': lines(
    '//! Small helpers.',
    '',
    'pub fn clamp(x: i32) -> i32 {',
    '    x.max(0)',
    '}',
  ),
  'app/Cargo.toml': lines(
    '[package]',
    'name = "app"',
    'version = "0.1.0"',
    'edition = "2021"',
    'publish = false',
    '',
    '[dependencies]',
    'geom = { path = "../geom" }',
  ),
  'app/src/main.rs': lines(
    'use geom::shapes::{double, Square};',
    'use geom::util;',
    '',
    'fn main() {',
    '    let s = Square::new(2.0);',
    '    println!(',
    '        "{} {} {}",',
    '        s.area(),',
    '        double(1.0),',
    '        geom::shapes::describe(&s)',
    '    );',
    '    println!("{} {}", util::clamp(-3), geom::square_of!(3.0));',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    #[test]',
    '    fn doubles() {',
    '        assert_eq!(geom::shapes::double(2.0), 8.0);',
    '    }',
    '}',
  ),
  'pubcrate/Cargo.toml': lines(
    '[package]',
    'name = "pubcrate"',
    'version = "0.1.0"',
    'edition = "2021"',
  ),
  'pubcrate/src/lib.rs': lines(
    'pub mod inner;',
  ),
  'pubcrate/src/inner.rs': lines(
    '/// Always one.',
    'pub fn exposed() -> u32 {',
    '    1',
    '}',
    '',
    'pub fn twice() -> u32 {',
    '    exposed() * 2',
    '}',
    '',
    '#[cfg(test)]',
    'fn expected() -> u32 {',
    '    2',
    '}',
    '',
    '#[test]',
    'fn twice_is_two() {',
    '    assert_eq!(twice(), expected());',
    '}',
    '',
    'use std::fmt::Write;',
    '',
    '/// A set of small numbers.',
    'pub struct Small {',
    '    top: u8,',
    '}',
    '',
    'impl Small {',
    '    pub const fn new(top: u8) -> Small {',
    '        Small { top }',
    '    }',
    '',
    '    const fn has(&self, n: u8) -> bool {',
    '        n <= self.top',
    '    }',
    '}',
    '',
    'const TEN: Small = Small::new(10);',
    '',
    'macro_rules! static_assert {',
    '    ($($b:expr,)+) => {',
    '        fn _static_assert() {',
    '            $(let _ = std::mem::transmute::<[u8; $b as usize], u8>;)+',
    '        }',
    '    };',
    '}',
    '',
    'static_assert! {',
    '    TEN.has(3),',
    '}',
    '',
    'pub fn render(n: u32) -> String {',
    '    let mut s = String::new();',
    '    s.write_str(&n.to_string()).unwrap();',
    '    s',
    '}',
  ),
  'pubcrate/tests/it.rs': lines('#[test]', 'fn exposed_is_one() {', '    assert_eq!(pubcrate::inner::exposed(), 1);', '}'),
};

async function workspace(): Promise<TestRepo> {
  return makeRepo(WORKSPACE);
}

test.serial('CLI: a fn moves into an existing mod.rs module; its helper becomes pub(crate), the other crate and the tests module follow', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await workspace();
  try {
    const run = await tug(repo.root, ['run', 'move-symbol', '--at', 'geom/src/shapes.rs:34:8', '--destination', 'crate::util', '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout + run.stderr);
    t.is(run.json.verification.status, 'passed', run.stdout);
    const show = (file: string) => repo.git('show', `${run.json.git.commit}:${file}`);
    t.is(await show('geom/src/util/mod.rs'), lines('//! Small helpers.', '', 'use crate::shapes::helper;', '', 'pub fn clamp(x: i32) -> i32 {', '    x.max(0)', '}', '', 'pub fn double(x: f64) -> f64 {', '    helper(x) * 2.0', '}').trimEnd());
    const shapes = await show('geom/src/shapes.rs');
    t.false(shapes.includes('pub fn double'), shapes);
    t.true(shapes.includes('pub(crate) fn helper(x: f64)'), shapes);
    // Only the tests module names it: the import goes there, so a build without cfg(test) has no unused import.
    t.true(shapes.includes('    use super::*;\n    use crate::util::double;\n'), shapes);
    const main = await show('app/src/main.rs');
    t.true(main.includes('use geom::shapes::Square;\n'), main);
    t.true(main.includes('use geom::util::double;\n'), main);
    t.true(main.includes('geom::util::double(2.0)'), main);
    t.deepEqual(run.json.warnings.map((w: { code: string }) => w.code), ['VisibilityChanged']);
    t.is(await repo.git('log', '-1', '--format=%s', run.json.git.commit), 'refactor(move-symbol): double -> geom::util');
  } finally {
    await repo.cleanup();
  }
});

test.serial('MCP: a struct with its impls into a new file; a macro-reached fn; a published path; a cfg item', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await workspace();
  const client = new Client({ name: 'tug-rust-move', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env: { ...(process.env as Record<string, string>) } }));
  const call = async (args: Record<string, unknown>) => {
    const answer = await client.callTool({ name: 'tug_move_symbol', arguments: { verify: 'tests', ...args } }, undefined, { timeout: GUARD_MS });
    return { isError: Boolean(answer.isError), result: answer.structuredContent as any, raw: JSON.stringify(answer.content) };
  };
  try {
    const square = await call({ file: 'geom/src/shapes.rs', line: 5, column: 12, destination: 'geom/src/geometry.rs' });
    t.false(square.isError, square.raw);
    t.is(square.result.verification.status, 'passed', square.raw);
    const show = (file: string) => repo.git('show', `${square.result.git.commit}:${file}`);
    const geometry = await show('geom/src/geometry.rs');
    t.true(geometry.startsWith(lines('use crate::shapes::helper;', 'use std::fmt;', '', '/// A square.', '#[derive(Debug, Clone, PartialEq)]', 'pub struct Square {', '    pub side: f64,', '    pub(crate) scale: f64,', '}')), geometry);
    t.true(geometry.includes('impl Square {\n') && geometry.includes('impl fmt::Display for Square {\n'), geometry);
    const lib = await show('geom/src/lib.rs');
    t.true(lib.startsWith(lines('//! Geometry.', 'pub mod geometry;', 'pub mod shapes;', 'pub mod util;', '', 'pub use crate::geometry::Square;')), lib);
    const shapes = await show('geom/src/shapes.rs');
    t.true(shapes.startsWith(lines('use crate::geometry::Square;', '', 'pub(crate) fn helper(x: f64) -> f64 {')), shapes);
    t.true((await show('app/src/main.rs')).startsWith(lines('use geom::geometry::Square;', 'use geom::shapes::double;')));

    // `$crate::shapes::area_of` in a macro_rules! body: refused before anything is written, naming the place.
    const macro = await call({ file: 'geom/src/shapes.rs', line: 30, column: 8, destination: 'geom/src/metrics/mod.rs' });
    t.true(macro.isError, macro.raw);
    t.is(macro.result.error.code, 'UnsafeRefactor');
    t.like(macro.result.error.details, { reason: 'named in a macro body', line: 11 });
    t.true(macro.result.error.details.places[0].startsWith('geom/src/lib.rs:11:'), macro.raw);
    const kept = await call({ file: 'geom/src/shapes.rs', line: 30, column: 8, destination: 'geom/src/metrics/mod.rs', keep_reexport: true });
    t.false(kept.isError, kept.raw);
    t.is(kept.result.verification.status, 'passed', kept.raw);
    t.deepEqual(kept.result.patch.files_created, ['geom/src/metrics/mod.rs']);
    t.like(kept.result.unsure[0], { file: 'geom/src/lib.rs', reason: 'macro_definition' });
    t.true((await repo.git('show', `${kept.result.git.commit}:geom/src/shapes.rs`)).startsWith(lines('pub use crate::metrics::area_of;', 'use std::fmt;')));
    t.true((await repo.git('show', `${kept.result.git.commit}:geom/src/lib.rs`)).includes('pub mod metrics;\n'));

    // A published crate's public path: refused, then kept by a `pub use` (the new module stays private).
    const exposed = await call({ file: 'pubcrate/src/inner.rs', line: 2, column: 8, destination: 'crate::other' });
    t.true(exposed.isError, exposed.raw);
    t.is(exposed.result.error.code, 'UnsafeRefactor');
    t.is(exposed.result.error.details.reason, 'public API path removed');
    const reexported = await call({ file: 'pubcrate/src/inner.rs', line: 2, column: 8, destination: 'crate::other', keep_reexport: true });
    t.false(reexported.isError, reexported.raw);
    t.is(reexported.result.verification.status, 'passed', reexported.raw);
    t.is(await repo.git('show', `${reexported.result.git.commit}:pubcrate/src/lib.rs`), lines('pub mod inner;', 'mod other;').trimEnd());
    const inner = await repo.git('show', `${reexported.result.git.commit}:pubcrate/src/inner.rs`);
    t.true(inner.includes('pub use crate::other::exposed;\nuse std::fmt::Write;\n') && !inner.includes('pub fn exposed'), inner);
    // The integration test is a crate of its own: it keeps the old path (the new module is private).
    t.is(await repo.git('show', `${reexported.result.git.commit}:pubcrate/tests/it.rs`), WORKSPACE['pubcrate/tests/it.rs']!.trimEnd());

    // A test fn needing a #[cfg(test)] fn of its old module: the import carries the cfg, the fn becomes pub(crate).
    const check = await call({ file: 'pubcrate/src/inner.rs', line: 16, column: 4, destination: 'crate::checks' });
    t.false(check.isError, check.raw);
    t.is(check.result.verification.status, 'passed', check.raw);
    const checks = await repo.git('show', `${check.result.git.commit}:pubcrate/src/checks.rs`);
    t.true(checks.includes('#[cfg(test)]\nuse crate::inner::expected;\n') && checks.includes('use crate::inner::twice;\n'), checks);
    t.true((await repo.git('show', `${check.result.git.commit}:pubcrate/src/inner.rs`)).includes('#[cfg(test)]\npub(crate) fn expected() -> u32 {'));

    // A trait imported only for its methods goes along (`s.write_str`); a private method named only where a macro
    // builds a type (`[u8; TEN.has(3) as usize]`) becomes pub(crate).
    const render = await call({ file: 'pubcrate/src/inner.rs', line: 51, column: 8, destination: 'crate::text', keep_reexport: true });
    t.false(render.isError, render.raw);
    t.is(render.result.verification.status, 'passed', render.raw);
    t.true((await repo.git('show', `${render.result.git.commit}:pubcrate/src/text.rs`)).startsWith('use std::fmt::Write;\n'));
    const small = await call({ file: 'pubcrate/src/inner.rs', line: 23, column: 12, destination: 'crate::sets', keep_reexport: true });
    t.false(small.isError, small.raw);
    t.is(small.result.verification.status, 'passed', small.raw);
    t.true((await repo.git('show', `${small.result.git.commit}:pubcrate/src/sets.rs`)).includes('    pub(crate) const fn has(&self, n: u8) -> bool {'));

    const gated = await call({ file: 'geom/src/shapes.rs', line: 43, column: 8, destination: 'crate::util' });
    t.true(gated.isError, gated.raw);
    t.is(gated.result.error.code, 'UnsafeRefactor');
    t.is(gated.result.error.details.reason, 'cfg-gated item');
    t.is(await repo.git('status', '--porcelain'), '');
  } finally {
    await client.close();
    await repo.cleanup();
  }
});
