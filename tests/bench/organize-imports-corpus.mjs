// organize-imports against the ruff command line on a corpus of real packages (not part of `npm test`).
//
//   node tests/bench/organize-imports-corpus.mjs --ruff /path/to/ruff [--root /usr/lib/python3/dist-packages] PKG...
//
// Each package is copied alone into a scratch directory (so it is the one first-party package, as in its own
// repository). `ruff check --isolated --select I001,F401 --fix` rewrites the copy; tug's organizeImports (the
// function behind `tug run organize-imports`, with the settings tug derives from the file list) rewrites each
// original file in memory. The two results are compared byte for byte; tug's result is also run a second time
// (idempotence) and compiled by python3 (it must still parse). Prints one line per package and a JSON summary.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { importSettings } from '../../dist/lib/python/import-settings.js';
import { organizeImports } from '../../dist/lib/python/organize-imports.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return value;
};
const ruff = option('--ruff', 'ruff');
const root = option('--root', '/usr/lib/python3/dist-packages');
const packages = args;

function pyFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === '__pycache__') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...pyFiles(path));
    else if (name.endsWith('.py')) out.push(path);
  }
  return out;
}

const totals = { packages: 0, files: 0, changedByRuff: 0, changedByTug: 0, same: 0, differ: 0, notIdempotent: 0, brokenByTug: 0, refused: 0, tugMs: 0 };
const differences = [];
for (const pkg of packages) {
  const scratch = mkdtempSync(join(tmpdir(), 'tug-oi-corpus-'));
  cpSync(join(root, pkg), join(scratch, pkg), { recursive: true, filter: (p) => !p.includes('__pycache__') });
  const files = pyFiles(join(scratch, pkg));
  const originals = new Map(files.map((f) => [f, readFileSync(f)]));
  try {
    execFileSync(ruff, ['check', '--isolated', '--select', 'I001,F401', '--fix', '--exit-zero', '--quiet', '--no-cache', '.'], { cwd: scratch, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    process.stderr.write(`ruff failed on ${pkg}: ${error.stderr}\n`);
  }
  const paths = files.map((f) => relative(scratch, f));
  const settings = importSettings(paths, undefined, undefined);
  const compileList = [];
  let same = 0;
  for (const file of files) {
    const rel = relative(scratch, file);
    const before = originals.get(file);
    const byRuff = readFileSync(file);
    const options = { firstParty: settings.firstParty, isort: settings.isort, lineLength: settings.lineLength, packageInit: /(^|\/)__init__\.py$/.test(rel) };
    let byTug;
    const started = performance.now();
    try {
      byTug = Buffer.from(await organizeImports(rel, before, options));
    } catch (error) {
      totals.refused++;
      differences.push({ file: rel, kind: 'refused', message: String(error.message ?? error) });
      continue;
    } finally {
      totals.tugMs += performance.now() - started;
    }
    const again = Buffer.from(await organizeImports(rel, byTug, options));
    totals.files++;
    if (!byRuff.equals(before)) totals.changedByRuff++;
    if (!byTug.equals(before)) {
      totals.changedByTug++;
      const out = join(scratch, '.tug-out', rel);
      cpSync(file, out);
      writeFileSync(out, byTug);
      compileList.push(out);
    }
    if (!again.equals(byTug)) {
      totals.notIdempotent++;
      differences.push({ file: rel, kind: 'not idempotent' });
    }
    if (byTug.equals(byRuff)) same++;
    else differences.push({ file: rel, kind: 'differs from ruff', init: options.packageInit });
  }
  for (const out of compileList) {
    try {
      execFileSync('python3', ['-c', 'import sys; compile(open(sys.argv[1], "rb").read(), sys.argv[1], "exec")', out], { stdio: 'ignore' });
    } catch {
      totals.brokenByTug++;
      differences.push({ file: relative(join(scratch, '.tug-out'), out), kind: 'does not compile' });
    }
  }
  totals.packages++;
  totals.same += same;
  totals.differ += files.length - same;
  console.log(`${pkg}: ${files.length} files, ${same} identical to ruff`);
  rmSync(scratch, { recursive: true, force: true });
}
totals.tugMs = Math.round(totals.tugMs);
console.log(JSON.stringify({ totals, differences }, null, 1));
