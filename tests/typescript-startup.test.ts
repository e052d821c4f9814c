// The TypeScript compiler loads only for a TypeScript command: a Python rename never reads it (checked in the real process through a preload that lists every module it loaded), a .ts rename does, through a V8 code cache.
import test from 'ava';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

/** A preload that writes the files of every CommonJS module the process loaded (the compiler is CommonJS) at exit. */
const PROBE = `
const { writeFileSync } = require('node:fs');
process.on('exit', () => writeFileSync(process.env.TUG_TEST_MODULES, Object.keys(require.cache).join('\\n')));
`;

async function loadedModules(cwd: string, args: string[]): Promise<{ modules: string[]; exitCode: number; stdout: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-probe-'));
  const probe = path.join(dir, 'probe.cjs');
  const out = path.join(dir, 'modules.txt');
  await writeFile(probe, PROBE);
  const run = await tug(cwd, args, { env: { TUG_NO_DAEMON: '1', TUG_CODE_CACHE: '0', NODE_OPTIONS: `--require ${probe}`, TUG_TEST_MODULES: out } });
  const modules = (await readFile(out, 'utf8')).split('\n');
  await rm(dir, { recursive: true, force: true });
  return { modules, exitCode: run.exitCode, stdout: run.stdout };
}

const compiler = (modules: string[]) => modules.filter((m) => /[/\\]typescript[/\\]lib[/\\]typescript\.js$/.test(m));

test('a Python rename does not load the TypeScript compiler; a TypeScript rename does', async (t) => {
  const repo = await makeRepo({ 'app.py': 'def total():\n    return 1\n\nprint(total())\n', 'app.ts': 'export function total() {\n  return 1;\n}\n' });
  const python = await loadedModules(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'sum_all']);
  t.is(python.exitCode, 0, python.stdout);
  t.deepEqual(compiler(python.modules), []);
  const typescript = await loadedModules(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app.ts:1:17', '--to', 'sumAll']);
  t.is(typescript.exitCode, 0, typescript.stdout);
  t.is(compiler(typescript.modules).length, 1, 'the probe sees the compiler when a TypeScript command loads it');
  await repo.cleanup();
});

test('the compiler runs through a code cache: the first TypeScript command makes it, the next uses it and answers the same', async (t) => {
  const repo = await makeRepo({ 'app.ts': 'export function total() {\n  return 1;\n}\nconsole.log(total());\n' });
  const cacheHome = await mkdtemp(path.join(os.tmpdir(), 'tug-ts-cache-'));
  const args = ['analyze-impact', 'rename-symbol', '--at', 'app.ts:1:17', '--to', 'sumAll'];
  const run = () => tug(repo.root, args, { env: { TUG_NO_DAEMON: '1', XDG_CACHE_HOME: cacheHome, TUG_TIMINGS: '1' } });
  const loaded = (stderr: string) => stderr.split('\n').find((l) => l.includes('typescript: compiler loaded'));
  const first = await run();
  t.is(first.exitCode, 0, first.stdout);
  t.regex(loaded(first.stderr) ?? '', /\(code cache made at exit\)$/);
  t.is((await readdir(path.join(cacheHome, 'tug'))).filter((f) => /^typescript-[0-9a-f]{16}\.v8cache$/.test(f)).length, 1);
  const second = await run();
  t.regex(loaded(second.stderr) ?? '', /\(code cache used\)$/);
  const refs = (r: { json: { references: unknown } }) => JSON.stringify(r.json.references);
  t.is(refs(second), refs(first));
  t.is(second.json.references.length, 2);
  await rm(cacheHome, { recursive: true, force: true });
  await repo.cleanup();
});
