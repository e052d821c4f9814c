// organize-imports' engine on its own: the order fixes are applied in and first party in namespace packages, the two
// places where tug's use of ruff's WebAssembly differed from `ruff check --select I001,F401 --fix` on a corpus of
// Debian's packages (tests/bench/organize-imports-corpus.mjs; docs/ops/organize-imports.md).
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withHints } from '../lib/python/ruff-hints.js';
import { loadRuff } from '../lib/python/ruff-wasm.js';
import { firstPartyOf, importSettings } from '../lib/python/import-settings.js';
import { organizeImports, type OrganizeOptions } from '../lib/python/organize-imports.js';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const options = (firstParty: string[]): OrganizeOptions => ({ firstParty, isort: {}, packageInit: false });

// The expected text is what `ruff check --isolated --select I001,F401 --fix` writes for this file (checked with ruff's
// command line): F401's removals first, then I001 sorts what is left, the comment going with the line below it.
test('a comment above an unused import ends where ruff --fix leaves it (fixes in the order of their first edit)', async (t) => {
  const before = [
    'import re',
    '',
    'from shapes.base import Shape',
    'from shapes.util import clamp, unused_helper',
    '',
    '# kept for old callers',
    'from shapes.legacy import OldShape',
    '',
    "__all__ = ['Box']",
    '',
    '',
    'class Box(Shape):',
    '    pattern = re.compile(r"x")',
    '    limit = clamp',
    '',
  ].join('\n');
  const after = decode(await organizeImports('shapes/box.py', encode(before), options(['shapes'])));
  t.is(
    after,
    [
      'import re',
      '',
      'from shapes.base import Shape',
      '',
      '# kept for old callers',
      'from shapes.util import clamp',
      '',
      "__all__ = ['Box']",
      '',
      '',
      'class Box(Shape):',
      '    pattern = re.compile(r"x")',
      '    limit = clamp',
      '',
    ].join('\n'),
  );
  t.is(decode(await organizeImports('shapes/box.py', encode(after), options(['shapes']))), after, 'a second run changes nothing');
});

test('first party: regular packages by their top name, a namespace package only by the parts the repository holds', (t) => {
  const paths = [
    'setup.py',
    'src/ledger/__init__.py',
    'src/ledger/book.py',
    'acme/tools/__init__.py',
    'acme/tools/cli.py',
    'acme/util.py',
    'tests/test_book.py',
    'README.md',
  ];
  t.deepEqual(firstPartyOf(paths), ['acme.tools', 'acme.util', 'ledger', 'setup', 'src.ledger', 'tests.test_book']);
});

test('an import of another part of a namespace package is third party', async (t) => {
  const before = 'import os\n\nfrom acme.other import thing\nfrom acme.tools import cli\n\nprint(os, thing, cli)\n';
  const after = decode(await organizeImports('acme/tools/run.py', encode(before), options(firstPartyOf(['acme/tools/__init__.py', 'acme/tools/run.py']))));
  t.is(after, 'import os\n\nfrom acme.other import thing\n\nfrom acme.tools import cli\n\nprint(os, thing, cli)\n');
});

test("source roots from [tool.ruff] src or [tool.isort] src_paths decide what is first party", (t) => {
  const paths = ['lib/billing/__init__.py', 'lib/billing/tax.py', 'scripts/run.py', 'conftest.py'];
  t.deepEqual(importSettings(paths, undefined, undefined).firstParty, ['conftest', 'lib.billing', 'scripts.run']);
  t.deepEqual(importSettings(paths, { tool: { ruff: { src: ['lib', 'scripts'] } } }, undefined).firstParty, ['billing', 'run']);
  t.deepEqual(importSettings(paths, undefined, { src: ['./lib'] }).firstParty, ['billing']);
  const isort = importSettings(paths, { tool: { isort: { profile: 'black', src_paths: ['lib', '.'] } } }, undefined);
  t.deepEqual(isort.firstParty, ['billing', 'conftest', 'lib.billing', 'scripts.run']);
  t.deepEqual(isort.warnings, []);
  t.deepEqual(importSettings(paths, { tool: { ruff: { src: ['../elsewhere'] } } }, undefined).firstParty, [], 'a root outside the repository is not looked at');
});

// The expected text is what ruff's command line writes for this stub: one blank line after a stub's imports,
// redundant aliases kept as re-exports, unused `import sys` removed.
test('a stub (.pyi) gets at most one blank line after its imports, as ruff gives stubs', async (t) => {
  const before = 'from typing import Any, List\nimport sys\nimport os as os\nfrom pkg.core import Thing\nfrom collections import OrderedDict as OrderedDict\n\n\n\ndef f(x: Any) -> Thing: ...\nclass C:\n    a: List[int]\n';
  const expected = 'import os as os\nfrom collections import OrderedDict as OrderedDict\nfrom typing import Any, List\n\nfrom pkg.core import Thing\n\ndef f(x: Any) -> Thing: ...\nclass C:\n    a: List[int]\n';
  t.is(decode(await organizeImports('pkg/mod.pyi', encode(before), options(['pkg']))), expected);
  const two = { ...options(['pkg']), isort: { 'lines-after-imports': 2 } };
  t.is(decode(await organizeImports('pkg/mod.pyi', encode(before), two)), expected, 'a configured 2 is still 1 in a stub');
});

// ruff's WebAssembly is compiled by a worker thread, with the functions a check calls (the build's profile) compiled
// before the first call (lib/python/ruff-wasm.ts). These show the profile is there and the hinted module is ruff.
/** tsconfig's libraries do not declare the WebAssembly namespace. */
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
interface WasmApi {
  Module: { new (bytes: Uint8Array): object; imports(m: object): unknown; exports(m: object): unknown; customSections(m: object, name: string): ArrayBuffer[] };
}
const RUFF_DIR = path.dirname(createRequire(import.meta.url).resolve('@astral-sh/ruff-wasm-nodejs'));
const HINTS = fileURLToPath(new URL('../lib/ruff-hints.json', import.meta.url));

test('the build profiled ruff: a list of the functions a check calls, made for the installed ruff', async (t) => {
  const wasm = await readFile(path.join(RUFF_DIR, 'ruff_wasm_bg.wasm'));
  const hints = JSON.parse(await readFile(HINTS, 'utf8')) as { wasm_size: number; functions: number[] };
  t.is(hints.wasm_size, wasm.length);
  t.true(hints.functions.length > 200, `${hints.functions.length} functions`);
  t.deepEqual(hints.functions, [...new Set(hints.functions)].sort((a, b) => a - b));
});

test('the hinted module is ruff unchanged: the same imports and exports, and a stale list is refused rather than misread', async (t) => {
  const wasm = await readFile(path.join(RUFF_DIR, 'ruff_wasm_bg.wasm'));
  const hints = JSON.parse(await readFile(HINTS, 'utf8')) as { functions: number[] };
  const hinted = withHints(wasm, hints.functions);
  t.truthy(hinted);
  t.is(hinted!.length > wasm.length, true);
  const shape = (m: object) => JSON.stringify([Wasm.Module.imports(m), Wasm.Module.exports(m)]);
  t.is(shape(new Wasm.Module(hinted!)), shape(new Wasm.Module(wasm)));
  t.deepEqual(Wasm.Module.customSections(new Wasm.Module(hinted!), 'compilationHints').length, 1);
  // An index past the module's own functions means the list was made for another ruff.
  t.is(withHints(wasm, [...hints.functions, 10_000_000]), null);
  t.is(withHints(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), [0]), null);
});

test('organize-imports through the loader answers as the package itself does', async (t) => {
  const ruff = await loadRuff();
  const plain = createRequire(import.meta.url)('@astral-sh/ruff-wasm-nodejs') as typeof ruff;
  const text = 'import sys\nimport os, json\n\nprint(os.sep, json)\n';
  const settings = { lint: { select: ['I001', 'F401'] } };
  const viaLoader = new ruff.Workspace(settings, ruff.PositionEncoding.Utf8).check(text);
  const viaPackage = new plain.Workspace(settings, plain.PositionEncoding.Utf8).check(text);
  t.deepEqual(viaLoader, viaPackage);
  t.true((viaLoader as unknown[]).length >= 2);
  t.not(ruff, plain, 'the loader fell back to the package');
});

test('two unused imports that are a block\'s whole body: one is removed, the other becomes pass, as ruff --fix does (not a syntax error)', async (t) => {
  const before = ['import sys', '', 'if sys.version_info > (3,):', '    import json', '    import re', ''].join('\n');
  const after = decode(await organizeImports('compat.py', encode(before), options([])));
  t.is(after, ['import sys', '', 'if sys.version_info > (3,):', '    pass', ''].join('\n'));
});

// simplejson's compat.py imports reload_module for its tests to import from it; organize-imports removed it as unused
// and the tests failed (found by the sweep, issue 28 §3). Such a module is sorted only; others still lose unused imports.
test('an import other modules take from this one stays: the module is sorted only', async (t) => {
  const { tug } = await import('./helpers/cli.js');
  const { makeRepo } = await import('./helpers/repo.js');
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/compat.py': 'import sys\nfrom io import StringIO, BytesIO\nif sys.version_info >= (3, 4):\n    from importlib import reload as reload_module\n',
    'pkg/other.py': 'import os\nimport json\n\n\ndef sep():\n    return os.sep\n',
    'pkg/tests/__init__.py': '',
    'pkg/tests/test_compat.py': 'from pkg.compat import StringIO, reload_module\n\n\ndef test_reload():\n    assert reload_module and StringIO\n',
  });
  const run = await tug(repo.root, ['run', 'organize-imports', '--file', 'pkg/compat.py', '--file', 'pkg/other.py', '--verify', 'syntax', '--json'], { env: { TUG_NO_DAEMON: '1' } });
  t.is(run.exitCode, 0, run.stdout);
  const branch = run.json.git.branch;
  t.is(await repo.git('show', `${branch}:pkg/compat.py`), 'import sys\nfrom io import BytesIO, StringIO\n\nif sys.version_info >= (3, 4):\n    from importlib import reload as reload_module');
  t.is(await repo.git('show', `${branch}:pkg/other.py`), 'import os\n\n\ndef sep():\n    return os.sep');
  await repo.cleanup();
});
