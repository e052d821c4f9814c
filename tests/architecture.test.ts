// Keeps the layering honest: who may import whom, who may run git or write to stdout, and the why-comment on every file.
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, dir), { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .sort();
}

function imports(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
}

test('every source file starts with a comment saying why it exists', async (t) => {
  for (const file of [...(await sources('lib')), ...(await sources('ui')), ...(await sources('tests'))]) {
    const first = (await readFile(path.join(ROOT, file), 'utf8')).split('\n')[0]!;
    t.regex(first, /^\/\/ \S/, `${file} needs a first-line why-comment`);
  }
});

test('lib/core does no IO and imports only lib/core and zod/diff/re2js', async (t) => {
  for (const file of await sources('lib/core')) {
    for (const spec of imports(await readFile(path.join(ROOT, file), 'utf8'))) {
      // re2js is a pure matcher (no IO): globs from a repository's config compile to it so matching stays linear.
      const allowed = spec.startsWith('./') || spec === 'zod' || spec === 'diff' || spec === 're2js' || spec === 'node:crypto';
      t.true(allowed, `${file} imports ${spec}`);
    }
  }
});

test('only lib/git, the verification runner and the language adapters spawn processes; only lib/git runs git', async (t) => {
  for (const file of await sources('lib')) {
    const text = await readFile(path.join(ROOT, file), 'utf8');
    const spawns = imports(text).some((s) => s === 'execa' || s === 'node:child_process');
    if (spawns) t.true(['lib/git/', 'lib/verify/', 'lib/python/', 'lib/rust/', 'lib/daemon/'].some((dir) => file.startsWith(dir)), `${file} spawns processes`);
    if (/\b(execa|spawn|spawnSync|execFile|execFileSync)\(\s*'git'/.test(text)) t.true(file.startsWith('lib/git/'), `${file} runs git`);
  }
});

test('only lib/rust/ speaks LSP', async (t) => {
  for (const file of await sources('lib')) {
    const lsp = imports(await readFile(path.join(ROOT, file), 'utf8')).filter((s) => s.startsWith('vscode-jsonrpc') || s.startsWith('vscode-languageserver'));
    if (lsp.length > 0) t.true(file.startsWith('lib/rust/'), `${file} imports ${lsp.join(', ')}`);
  }
});

test('the working tree is written only by lib/workspace/apply.ts', async (t) => {
  for (const file of await sources('lib')) {
    if (file === 'lib/workspace/apply.ts') continue;
    const text = await readFile(path.join(ROOT, file), 'utf8');
    const writesRoot = /repo\.root[^\n]*\b(writeFile|rename|open\(|rm\()/.test(text) || /writeFile\(path\.join\(repo\.root/.test(text);
    t.false(writesRoot, `${file} writes into the user's tree`);
  }
});

test('lib/ never imports ink or react, and nothing in lib/ writes to stdout except lib/cli/output.ts and the CLI', async (t) => {
  for (const file of await sources('lib')) {
    const text = await readFile(path.join(ROOT, file), 'utf8');
    t.false(imports(text).some((s) => s === 'ink' || s === 'react'), `${file} imports ink/react`);
    t.false(/console\.(log|info|warn|error|debug)/.test(text), `${file} uses console`);
    if (!file.startsWith('lib/cli/') && file !== 'lib/daemon/client.ts') t.false(/process\.stdout\.write/.test(text), `${file} writes to stdout`);
  }
});

test('front doors reach operations only through the registry (and the read-only queries)', async (t) => {
  for (const file of [...(await sources('lib/cli')), ...(await sources('lib/mcp'))]) {
    for (const spec of imports(await readFile(path.join(ROOT, file), 'utf8'))) {
      if (!spec.startsWith('../')) continue;
      const allowed =
        spec.startsWith('../core/') ||
        spec.startsWith('../mcp/') ||
        spec.startsWith('../daemon/') ||
        // The review TUI's kernel: the actions behind its keys, which are not registry operations (they need a person).
        ['../review/kernel.js', '../review/types.js'].includes(spec) ||
        // The lean start of a bare `tug snapshot`, which must not load the registry (zod): the same code the operation runs.
        (file === 'lib/cli/lean-snapshot.ts' && spec === '../ops/snapshot/run.js') ||
        // bin/tug's first step starts a Python refactor's worker while the CLI loads, which the pool then takes over,
        // and organize-imports' compile of ruff's WebAssembly, which the check then uses.
        (file === 'lib/cli/launch.ts' && ['../python/early-worker.js', '../python/worker.js', '../python/ruff-wasm.js'].includes(spec)) ||
        // The CLI bundle's V8 code cache, kept and pruned where the TypeScript compiler's is.
        (file === 'lib/cli/bundle-loader.ts' && spec === '../workspace/user-cache.js') ||
        ['../ops/registry.js', '../ops/operation.js', '../ops/workspace/queries.js', '../ops/resources.js', '../git/repo.js', '../tools.js', '../tool-provider.js'].includes(spec);
      t.true(allowed, `${file} imports ${spec}`);
    }
  }
});

test('lib/ never imports ui/; the CLI loads the TUI by URL at run time from one place only', async (t) => {
  for (const file of await sources('lib')) {
    const text = await readFile(path.join(ROOT, file), 'utf8');
    t.false(imports(text).some((s) => /(^|\/)ui\//.test(s)), `${file} imports ui/`);
    if (/ui\/main\.js/.test(text)) t.is(file, 'lib/cli/review-command.ts', `${file} loads the TUI`);
  }
});

test('ui/ is ink + react over lib/review types: no kernel code of its own, no console, no stdout writes', async (t) => {
  const files = await sources('ui');
  t.true(files.length > 0);
  for (const file of files) {
    const text = await readFile(path.join(ROOT, file), 'utf8');
    const name = path.basename(file);
    t.regex(name, /^([A-Z][A-Za-z]+\.tsx|use-[a-z-]+\.ts|[a-z][a-z-]*\.tsx?)$/, `${file}: PascalCase components, use-* hooks, kebab-case modules`);
    t.false(/console\.(log|info|warn|error|debug)/.test(text), `${file} uses console`);
    t.false(/process\.stdout\.write/.test(text), `${file} writes to stdout`);
    for (const match of text.matchAll(/^import (type )?[^'\n]*'([^']+)'/gm)) {
      const [, typeOnly, spec] = match;
      const allowed = spec === 'ink' || spec === 'react' || spec!.startsWith('./') || (typeOnly !== undefined && (spec!.startsWith('../lib/review/') || spec!.startsWith('../lib/core/')));
      t.true(allowed, `${file} imports ${spec}${typeOnly ? ' (type)' : ''}: ui/ uses ink, react, its own files, and only types from lib/review and lib/core`);
    }
  }
});

/** Every relative import of a source file (static, dynamic and type-only), as repository paths. */
async function importGraph(dir: string): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await sources(dir)) {
    const text = await readFile(path.join(ROOT, file), 'utf8');
    const targets = imports(text)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.normalize(path.join(path.dirname(file), spec)).replace(/\.js$/, '.ts'));
    graph.set(file, targets);
  }
  return graph;
}

test('lib/ has no import circles, counting type-only and lazy imports', async (t) => {
  const graph = await importGraph('lib');
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  t.deepEqual(circles, []);
});

test('lib/ops holds the shared parts and one folder per operation, no loose operation files', async (t) => {
  const loose = (await sources('lib/ops')).filter((file) => path.dirname(file) === 'lib/ops').map((file) => path.basename(file));
  t.deepEqual(loose, ['operation.ts', 'registry.ts', 'resources.ts']);
});

test('only lib/typescript/ loads the TypeScript compiler, and only lib/typescript/load.ts does so at run time', async (t) => {
  for (const file of await sources('lib')) {
    const text = await readFile(path.join(ROOT, file), 'utf8');
    // Type-only imports vanish at compile time; a value import would load the compiler with the module that holds it.
    const valueImport = /^import (?!type )[^'\n]*'typescript'/m.test(text);
    t.false(valueImport, `${file} imports typescript as a value (load it through lib/typescript/load.ts)`);
    if (/require\([^)]*'typescript'/.test(text)) t.is(file, 'lib/typescript/load.ts', `${file} requires typescript`);
    // files.ts and load.ts load nothing of the compiler at import time; the rest of the adapter builds on it.
    if (/from '(\.\.\/)+typescript\/(?!files\.js|load\.js)/.test(text) && !file.startsWith('lib/typescript/')) {
      t.regex(text, /await import\('(\.\.\/)+typescript\//, `${file} reaches lib/typescript/ beyond files.ts and load.ts without a lazy import`);
    }
  }
});
