// Build step: records which of ruff's WebAssembly functions organize-imports calls when it checks Python (the
// repository's fixtures and worker), so tug can have V8 compile them ahead of the first call (lib/python/ruff-wasm.ts).
// V8 prints each compiled function with --trace-wasm-compilation-times; a run that prints none leaves no list, and
// organize-imports then compiles lazily as before.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'dist/lib/ruff-hints.json');
const glue = createRequire(import.meta.url).resolve('@astral-sh/ruff-wasm-nodejs');
const wasm = readFileSync(path.join(path.dirname(glue), 'ruff_wasm_bg.wasm'));

function pythonFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.pyi?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

const corpus = [...pythonFiles(path.join(ROOT, 'fixtures/python')), ...pythonFiles(path.join(ROOT, 'python-worker'))];

// The same flags and settings as organize-imports: both rule sets (a package's __init__ is checked for I001 only).
const PROFILE = `
const { setFlagsFromString } = require('node:v8');
setFlagsFromString('--liftoff-only');
setFlagsFromString('--wasm-lazy-validation');
const { readFileSync } = require('node:fs');
const ruff = require(${JSON.stringify(glue)});
const both = new ruff.Workspace({ lint: { select: ['I001', 'F401'] } }, ruff.PositionEncoding.Utf8);
const sortOnly = new ruff.Workspace({ lint: { select: ['I001'] } }, ruff.PositionEncoding.Utf8);
for (const file of JSON.parse(readFileSync(0, 'utf8'))) {
  const text = readFileSync(file, 'utf8');
  for (const workspace of [both, sortOnly]) {
    try { workspace.check(text); } catch {}
  }
}
process.exit(0);
`;

const run = spawnSync(process.execPath, ['--trace-wasm-compilation-times', '-e', PROFILE], { input: JSON.stringify(corpus), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const called = new Set();
for (const match of (run.stdout ?? '').matchAll(/^Compiled function \S+#(\d+) using Liftoff/gm)) called.add(Number(match[1]));

rmSync(OUT, { force: true });
if (run.status !== 0 || called.size === 0) {
  process.stderr.write(`ruff-hints: no profile (exit ${run.status}, ${called.size} functions); organize-imports compiles ruff lazily\n`);
} else {
  // V8 numbers imported functions first; the hints count only the module's own.
  const imported = WebAssembly.Module.imports(new WebAssembly.Module(wasm)).filter((i) => i.kind === 'function').length;
  const functions = [...called].filter((i) => i >= imported).map((i) => i - imported).sort((a, b) => a - b);
  writeFileSync(OUT, `${JSON.stringify({ wasm_size: wasm.length, functions })}\n`);
}
