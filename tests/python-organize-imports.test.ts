// organize-imports' engine on its own: the order fixes are applied in and first party in namespace packages, the two
// places where tug's use of ruff's WebAssembly differed from `ruff check --select I001,F401 --fix` on a corpus of
// Debian's packages (tests/bench/organize-imports-corpus.mjs; docs/ops/organize-imports.md).
import test from 'ava';
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
