// organize-imports is idempotent: a file already organized is success with nothing changed (no branch, no commit, no
// undo token), through the CLI and the library alike; ruff's WebAssembly compiles only when a file needs it; --all
// leaves the files ruff's own exclude and extend-exclude leave (issue 28).
import test from 'ava';
import { findOperation } from '../lib/index.js';
import { summarize } from '../lib/cli/summary.js';
import { summarize as summarizeMcp } from '../lib/mcp/summary.js';
import { excludedByRuff, ruffExclusions } from '../lib/python/ruff-exclude.js';
import { tug } from './helpers/cli.js';
import { makeRepo, repoState } from './helpers/repo.js';

const ORGANIZED = ['import json', 'import os', '', 'from inventory.models import Item', '', '', 'def dump(item: Item) -> str:', '    return json.dumps({"path": os.sep, "item": item.name})', ''].join('\n');
const UNSORTED = ['import sys', 'import os', '', '', 'def where() -> str:', '    return os.sep + sys.platform', ''].join('\n');
const MODELS = 'class Item:\n    name = "widget"\n';
/** TUG_TIMINGS=1 prints phase marks on stderr; this one when ruff's compile starts. */
const COMPILE = 'ruff: compile started';
const TIMED = { env: { TUG_TIMINGS: '1', TUG_NO_DAEMON: '1' } };

test('an organized file: ok, changed false, no branch, no commit, no undo token, exit 0; the summary says nothing to change', async (t) => {
  const repo = await makeRepo({ 'inventory/__init__.py': '', 'inventory/models.py': MODELS, 'inventory/export.py': ORGANIZED });
  try {
    const before = await repoState(repo);
    const branches = await repo.git('branch', '--list');
    const run = await tug(repo.root, ['organize-imports', '--file', 'inventory/export.py', '--json'], TIMED);
    t.is(run.exitCode, 0, run.stdout);
    t.like(run.json, { status: 'ok', operation: 'organize-imports', changed: false, applied: false, summary: { files_changed: 0, edits_count: 0 } });
    t.false('undo_token' in run.json);
    t.false('git' in run.json);
    t.deepEqual(run.json.patch.edits, []);
    t.is(await repo.git('branch', '--list'), branches, 'no tug/ branch');
    t.is(await repoState(repo), before);
    t.false(run.stderr.includes(COMPILE), 'the worker answered: ruff never compiled');
    t.regex(summarize('organize-imports', run.json), /^organize-imports: nothing to change/);
    const applied = await tug(repo.root, ['organize-imports', '--file', 'inventory/export.py', '--apply', '--json']);
    t.is(applied.exitCode, 0, applied.stdout);
    t.like(applied.json, { changed: false, applied: false });
    t.is(await repoState(repo), before);
  } finally {
    await repo.cleanup();
  }
});

test('the library answers the same as the CLI for nothing to do', async (t) => {
  const repo = await makeRepo({ 'inventory/__init__.py': '', 'inventory/models.py': MODELS, 'inventory/export.py': ORGANIZED });
  try {
    const operation = findOperation('tug_organize_imports')!;
    const result = (await operation.execute(operation.input.parse({ workspace: repo.root, file: 'inventory/export.py' }), {})) as Record<string, unknown>;
    const cli = await tug(repo.root, ['organize-imports', '--file', 'inventory/export.py', '--json']);
    t.deepEqual(result, cli.json);
    t.is(result['changed'], false);
  } finally {
    await repo.cleanup();
  }
});

test('a file that needs organizing still gets a branch and an undo token, without changed', async (t) => {
  const repo = await makeRepo({ 'tool.py': UNSORTED });
  try {
    const run = await tug(repo.root, ['organize-imports', '--file', 'tool.py', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.false('changed' in run.json);
    t.is(typeof run.json.undo_token, 'string');
    t.regex(run.json.git.branch, /^tug\/organize-imports\//);
  } finally {
    await repo.cleanup();
  }
});

test('--all in a repository without Python files never starts ruff\'s compile; neither do files without imports', async (t) => {
  const repo = await makeRepo({ 'README.md': '# docs\n', 'src/lib.rs': 'pub fn f() {}\n' });
  try {
    const run = await tug(repo.root, ['organize-imports', '--all', '--json'], TIMED);
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.changed, false);
    t.false(run.stderr.includes(COMPILE), run.stderr);
  } finally {
    await repo.cleanup();
  }
  // CRLF line endings are a case the worker's engine leaves to ruff; without an import statement there is nothing to ask.
  const plain = await makeRepo({ 'notes.py': 'VALUE = 1\r\n\r\n\r\ndef double(x):\r\n    return 2 * x\r\n' });
  try {
    const run = await tug(plain.root, ['organize-imports', '--file', 'notes.py', '--json'], TIMED);
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.changed, false);
    t.false(run.stderr.includes(COMPILE), run.stderr);
  } finally {
    await plain.cleanup();
  }
});

test('a file the worker leaves to ruff still compiles it and is organized', async (t) => {
  const repo = await makeRepo({ 'tool.py': UNSORTED.replaceAll('\n', '\r\n') });
  try {
    const run = await tug(repo.root, ['organize-imports', '--file', 'tool.py', '--json'], TIMED);
    t.is(run.exitCode, 0, run.stdout);
    t.true(run.stderr.includes(COMPILE), run.stderr);
    t.regex(run.json.patch.unified_diff, /\+import sys/);
  } finally {
    await repo.cleanup();
  }
});

test('--all skips what ruff skips: extend-exclude from [tool.ruff], ruff\'s default exclusions, and exclude from ruff.toml', async (t) => {
  const pyproject = ['[project]', 'name = "tools"', '', '[tool.ruff]', 'extend-exclude = ["generated", "tests/fixtures/*.py"]', ''].join('\n');
  const repo = await makeRepo({
    'pyproject.toml': pyproject,
    'tools/__init__.py': '',
    'tools/run.py': UNSORTED,
    'generated/proto_pb2.py': UNSORTED,
    'tests/fixtures/sample.py': UNSORTED,
    'tests/test_run.py': UNSORTED,
    'build/lib/tools/run.py': UNSORTED,
    'venv/lib/site.py': UNSORTED,
  });
  try {
    const run = await tug(repo.root, ['organize-imports', '--all', '--verify', 'none', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    // `build` is not among ruff's defaults (any more); `venv` is.
    t.deepEqual([...new Set(run.json.patch.edits.map((e: { file: string }) => e.file))].sort(), ['build/lib/tools/run.py', 'tests/test_run.py', 'tools/run.py']);
    // A file named on the command line is organized as asked, as `ruff check generated/proto_pb2.py` checks it.
    const named = await tug(repo.root, ['organize-imports', '--file', 'generated/proto_pb2.py', '--verify', 'none', '--json']);
    t.is(named.json.summary.files_changed, 1, named.stdout);
  } finally {
    await repo.cleanup();
  }
  const replaced = await makeRepo({ 'ruff.toml': 'exclude = ["legacy"]\n', 'legacy/old.py': UNSORTED, 'venv/kept.py': UNSORTED, 'app.py': UNSORTED });
  try {
    const run = await tug(replaced.root, ['organize-imports', '--all', '--verify', 'none', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    // exclude replaces ruff's defaults: venv/ is organized again.
    t.deepEqual([...new Set(run.json.patch.edits.map((e: { file: string }) => e.file))].sort(), ['app.py', 'venv/kept.py']);
  } finally {
    await replaced.cleanup();
  }
});

test("ruff's exclusion patterns: a name at any depth, a path from the root, `*` across directories, classes and alternatives", (t) => {
  const patterns = ruffExclusions({ exclude: ['node_modules', 'docs/*', 'gen_[ab].py', '{third,fourth}_party', './scripts/'] });
  const cases: Array<[string, boolean]> = [
    ['node_modules/x.py', true],
    ['web/node_modules/pkg/y.py', true],
    ['docs/conf.py', true],
    ['docs/api/deep/page.py', true],
    ['src/docs/conf.py', false],
    ['pkg/gen_a.py', true],
    ['pkg/gen_c.py', false],
    ['third_party/lib.py', true],
    ['pkg/fourth_party/lib.py', true],
    ['scripts/tool.py', true],
    ['pkg/scripts/tool.py', false],
    ['pkg/module.py', false],
  ];
  for (const [file, excluded] of cases) t.is(excludedByRuff(file, patterns), excluded, file);
  t.true(excludedByRuff('.venv/lib/x.py', ruffExclusions(undefined)), "ruff's defaults without a configuration");
});

test('a hostile exclusion pattern from the repository cannot make tug spin (linear-time matching)', (t) => {
  const patterns = ruffExclusions({ 'extend-exclude': [`${'*a'.repeat(40)}b`] });
  t.false(excludedByRuff(`${'a'.repeat(5000)}.py`, patterns));
});

test("MCP's text content says nothing to change where the result has changed: false", (t) => {
  const result = { status: 'ok', operation: 'organize-imports', summary: { files_changed: 0 }, verification: { status: 'skipped', mode: 'syntax', checks: [] }, changed: false };
  t.is(summarizeMcp('tug_organize_imports', result, []), 'organize-imports: nothing to change (no branch, no commit, no undo_token)');
});
