// organize-imports: the worker's engine against ruff's WebAssembly (as tug runs it) on real code, not part of `npm test`.
//
//   node tests/bench/organize-imports-engine.mjs [ROOT...]      (default: /usr/lib/python3/dist-packages)
//
// Every .py file under the roots (tests included only with ALL=1) goes once through the worker's engine in one
// request and once through ruff; prints how many the engine answered, how many of those differ from ruff (must be
// 0), why it left the others to ruff, and the time each engine took per file.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { organizeImports } from '../../dist/lib/python/organize-imports.js';
import { resolvePython } from '../../dist/lib/python/interpreter.js';
import { PythonWorker, WORKER_SCRIPT } from '../../dist/lib/python/worker.js';

const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/usr/lib/python3/dist-packages'];
const files = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && (process.env.ALL || !/test|__pycache__/.test(entry.name))) walk(full);
    else if (entry.isFile() && entry.name.endsWith('.py') && statSync(full).size < 400_000) files.push(full);
  }
};
for (const root of roots) walk(root);
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const batch = [];
for (const file of files) {
  try {
    batch.push({ path: file, content: decoder.decode(readFileSync(file)), package_init: file.endsWith('__init__.py') });
  } catch {
    // not UTF-8: tug leaves such a file to ruff
  }
}
const worker = await PythonWorker.start({ python: (await resolvePython()).path, script: WORKER_SCRIPT });
let start = performance.now();
const { results } = await worker.request('organize_imports', { files: batch, first_party: [], isort: {}, line_length: 88 }, 600_000);
const engineMs = performance.now() - start;
await worker.shutdown();
await organizeImports('warm.py', Buffer.from('import os\n'), { firstParty: [], isort: {}, packageInit: false });
const reasons = new Map();
const differ = [];
let answered = 0;
let ruffMs = 0;
for (const [i, result] of results.entries()) {
  const file = batch[i];
  start = performance.now();
  let ruff;
  try {
    ruff = Buffer.from(await organizeImports(file.path, Buffer.from(file.content), { firstParty: [], isort: {}, packageInit: file.package_init })).toString('utf8');
  } catch {
    ruff = null;
  }
  ruffMs += performance.now() - start;
  if (result.unsupported !== undefined) reasons.set(result.unsupported, (reasons.get(result.unsupported) ?? 0) + 1);
  else {
    answered++;
    if (result.content !== ruff) differ.push(file.path);
  }
}
const perFile = (ms) => `${(ms / batch.length).toFixed(1)} ms/file`;
console.log(`files ${batch.length}, answered by the engine ${answered} (${((100 * answered) / batch.length).toFixed(1)}%), different from ruff ${differ.length}`);
console.log(`engine ${perFile(engineMs)} (one request), ruff ${perFile(ruffMs)} (compiled, in process)`);
for (const file of differ) console.log(`DIFFERENT ${file}`);
for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`left to ruff: ${count} × ${reason}`);
process.exitCode = differ.length > 0 ? 1 : 0;
