// Error codes people meet on the command line: AmbiguousSymbol, UnsupportedOperation, and the self-healing CacheCorrupt.
import test from 'ava';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { FACTS_SCHEMA } from '../lib/python/facts-cache.js';
import { makeRepo } from './helpers/repo.js';

const SOURCE = 'def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ny = a if b else 0\n';

test('a position on blank space between two names is AmbiguousSymbol with both candidates (exit 3)', async (t) => {
  const repo = await makeRepo({ 'm.py': SOURCE });
  // Line 9 is `y = a if b else 0`: column 6 is the blank after `a`, column 9 the blank before `b`.
  for (const col of [6, 9]) {
    const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', `m.py:9:${col}`, '--to', 'c']);
    t.is(run.exitCode, 3, run.stdout);
    t.is(run.json.error.code, 'AmbiguousSymbol');
    t.deepEqual(
      run.json.error.details.candidates.map((c: { name: string; location: { line: number; col: number } }) => `${c.name}@${c.location.line}:${c.location.col}`),
      ['a@9:5', 'b@9:10'],
    );
  }
  const onName = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'm.py:9:5', '--to', 'c']);
  t.is(onName.json.symbol.name, 'a', 'a position on a name still picks it');
  const beforeParen = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'm.py:1:6', '--to', 'c']);
  t.is(beforeParen.json.symbol.name, 'a', 'the column just past a name still means that name');
  await repo.cleanup();
});

test('an unknown operation is UnsupportedOperation (exit 2) listing the supported ones, closest first', async (t) => {
  const repo = await makeRepo({ 'm.py': SOURCE });
  for (const args of [
    ['run', 'split-module', '--at', 'm.py:1:5', '--to', 'c'],
    ['analyze-impact', 'renam-symbol', '--at', 'm.py:1:5', '--to', 'c'],
  ]) {
    const run = await tug(repo.root, args);
    t.is(run.exitCode, 2, run.stdout);
    t.is(run.json.error.code, 'UnsupportedOperation');
    // run and analyze-impact take the same refactors, listed from the registry.
    t.deepEqual(run.json.error.details.supported, ['rename-symbol', 'extract-variable', 'extract-function', 'inline', 'organize-imports', 'move-symbol', 'change-signature', 'assist']);
    t.regex(run.json.error.message, /supported: rename-symbol/);
  }
  const underscores = await tug(repo.root, ['analyze-impact', 'rename_symbol', '--at', 'm.py:1:5', '--to', 'c']);
  t.is(underscores.exitCode, 0, 'the MCP spelling is accepted too');
  t.is(await repo.git('status', '--porcelain'), '');
  await repo.cleanup();
});

test('a damaged facts cache entry is dropped and rebuilt with a CacheCorrupt warning, and the answer is unchanged', async (t) => {
  const repo = await makeRepo({ 'm.py': SOURCE, 'n.py': 'from m import a\n\nprint(a())\n' });
  const args = ['analyze-impact', 'rename-symbol', '--at', 'm.py:1:5', '--to', 'c'];
  const first = await tug(repo.root, args);
  t.is(first.exitCode, 0, first.stdout);
  const packs = path.join(repo.root, '.git', 'tug', 'facts', FACTS_SCHEMA, 'packs');
  const [pack] = (await readdir(packs)).filter((n) => n.endsWith('.jsonl'));
  const file = path.join(packs, pack!);
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines[0] = `${lines[0]!.slice(0, 41)}{"scopes": [`;
  await writeFile(file, lines.join('\n'));
  const damaged = await tug(repo.root, args);
  t.is(damaged.exitCode, 0, damaged.stdout);
  const corrupt = damaged.json.warnings.filter((w: { code: string }) => w.code === 'CacheCorrupt');
  t.is(corrupt.length, 1);
  t.regex(corrupt[0].message, /the cached facts of (m|n)\.py were damaged; tug dropped them and analysed the file again/);
  t.deepEqual(damaged.json.references, first.json.references);
  const healed = await tug(repo.root, args);
  t.deepEqual(healed.json, first.json, 'the rebuilt entry serves the next run without a warning');
  await repo.cleanup();
});
