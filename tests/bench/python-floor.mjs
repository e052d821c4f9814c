// Issue 33: a cold Python analyze-impact against its floor (Node start + `git grep -l -F` + parsing the files it lists),
// against `ast.parse` of every file, and against jedi, on real repositories (Debian's own Python sources) and on
// generated ones of growing size; every figure sits next to the load average it was measured at.
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cachedRepo, fmt, median, NO_DAEMON, row, timed, TUG } from './lib.mjs';
import { mb, peakRss } from './rss.mjs';
import { debianPackageRepo, locate } from './debian-package.mjs';
import { JEDI } from './python.mjs';
import { PARSE_ALL } from './python-large.mjs';

/** The floor: a Node process that asks `git grep` which files mention the names, then a Python that parses those. */
const FLOOR = `
const { execFileSync } = require('node:child_process');
const [repo, ...names] = process.argv.slice(1);
const listed = execFileSync('git', ['grep', '-l', '-z', '-F', ...names.flatMap((n) => ['-e', n]), 'HEAD', '--', '*.py', '*.pyi'], { cwd: repo, maxBuffer: 1 << 28 });
const files = listed.toString().split('\\0').filter(Boolean).map((f) => f.slice('HEAD:'.length));
execFileSync('python3', ['-c', 'import ast, sys\\nfor f in sys.argv[1:]:\\n    ast.parse(open(f, "rb").read())', ...files], { cwd: repo });
`;

export const load = () => os.loadavg()[0];

/**
 * The floor's Node starts without NODE_EXTRA_CA_CERTS, as `tug` does (bin/tug's shell line): Node 20 reads that file at
 * every start (~40 ms of CPU where it names Debian's CA bundle), which no floor needs.
 */
const FLOOR_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_EXTRA_CA_CERTS'));

/**
 * Runs a command through a small Python parent that reports its wall time and the CPU time (user + system) of every
 * process it started, waited for: on a machine shared with other work, CPU time is the figure the load does not inflate.
 */
const CPU = `
import json, resource, subprocess, sys, time
started = time.perf_counter()
run = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"ms": wall * 1000, "cpu": (usage.ru_utime + usage.ru_stime) * 1000, "status": run.returncode, "stdout": run.stdout.decode("utf-8", "replace"), "stderr": run.stderr.decode("utf-8", "replace")[-2000:]}))
`;

export function cpuTimed(command, args, options = {}) {
  const run = JSON.parse(timed('python3', ['-c', CPU, command, ...args], options).stdout);
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status}\n${run.stderr}`);
  return run;
}
const loadText = (loads) => median(loads).toFixed(1);

/** /usr/lib/python3.X: the interpreter's standard library as Debian installs it (~660 modules). */
function stdlibDir() {
  const found = readdirSync('/usr/lib').filter((d) => /^python3\.\d+$/.test(d)).sort().pop();
  return found ? path.join('/usr/lib', found) : null;
}

const skip = (src) => !/(__pycache__|\/lib-dynload|\/config-3\.[\d]+-|\/site-packages)/.test(src);

/** The standard library alone: a 600+-file real repository. */
export function stdlibRepo() {
  const dir = stdlibDir();
  return dir && cachedRepo(`py-${path.basename(dir)}-stdlib`, (repo) => cpSync(dir, repo, { recursive: true, filter: skip }));
}

/** The standard library plus every package in dist-packages, side by side as on `sys.path` (~3,800 modules). */
function debianPythonRepo() {
  const dir = stdlibDir();
  if (!dir || !existsSync('/usr/lib/python3/dist-packages')) return null;
  return cachedRepo(`py-${path.basename(dir)}-with-dist-packages`, (repo) => {
    cpSync('/usr/lib/python3/dist-packages', repo, { recursive: true, filter: skip });
    cpSync(dir, repo, { recursive: true, filter: skip });
  });
}

/** The real subjects of the floor table: a function defined once and used in about ten files. */
export function realSubjects() {
  const out = [];
  const stdlib = stdlibRepo();
  if (stdlib) out.push({ name: `Debian's ${path.basename(stdlibDir())} standard library: \`tempfile.mkstemp\``, repo: stdlib, file: 'tempfile.py', ...locate(stdlib, 'tempfile.py', 'def mkstemp(', 'mkstemp'), from: 'mkstemp', to: 'make_temp_file' });
  const all = debianPythonRepo();
  if (all) out.push({ name: 'the same plus all of dist-packages in one repository: `tempfile.mkstemp`', repo: all, file: 'tempfile.py', ...locate(all, 'tempfile.py', 'def mkstemp(', 'mkstemp'), from: 'mkstemp', to: 'make_temp_file' });
  return out;
}

const files = (repo) => Number(timed('sh', ['-c', "git ls-files '*.py' '*.pyi' | wc -l"], { cwd: repo }).stdout.trim());
const analyzeArgs = (s) => ['analyze-impact', 'rename-symbol', '--at', `${s.file}:${s.line}:${s.col}`, '--to', s.to, '--json'];
const clean = (repo) => timed(TUG, ['clean', '--cache', '--json'], { cwd: repo, env: NO_DAEMON });

/**
 * One cold tug run (empty facts cache, no daemon) and the baselines right after it, `runs` times interleaved; then the
 * same tug command again with the facts it just cached: no worker parses anything, so its CPU is Node's and git's share
 * of the cold run, and the difference is what the worker's facts cost.
 */
export function floorBench(runs, subjects = realSubjects()) {
  return subjects.map((s) => {
    const [tug, floor, parseAll, cached] = [[], [], [], []];
    const loads = [];
    let references = 0;
    for (let i = 0; i < runs; i++) {
      loads.push(load());
      clean(s.repo);
      const run = cpuTimed(TUG, analyzeArgs(s), { cwd: s.repo, env: NO_DAEMON });
      tug.push(run);
      references = JSON.parse(run.stdout).references.length;
      cached.push(cpuTimed(TUG, analyzeArgs(s), { cwd: s.repo, env: NO_DAEMON }));
      floor.push(cpuTimed('node', ['-e', FLOOR, s.repo, s.from, s.to], { env: FLOOR_ENV }));
      parseAll.push(cpuTimed('python3', ['-c', PARSE_ALL, s.repo]));
    }
    const wall = (runs) => median(runs.map((r) => r.ms));
    const cpu = (runs) => median(runs.map((r) => r.cpu));
    const mentioning = timed('git', ['grep', '-l', '-F', '-e', s.from, '-e', s.to, 'HEAD', '--', '*.py', '*.pyi'], { cwd: s.repo }).stdout.trim().split('\n').length;
    clean(s.repo);
    const rss = peakRss(TUG, analyzeArgs(s), { cwd: s.repo, env: NO_DAEMON });
    return { name: s.name, files: files(s.repo), mentioning, references, tug: wall(tug), floor: wall(floor), parseAll: wall(parseAll), tugCpu: cpu(tug), floorCpu: cpu(floor), parseAllCpu: cpu(parseAll), cachedCpu: cpu(cached), rss, load: loadText(loads) };
  });
}

export function floorReport(results) {
  const lines = ['### Cold analyze-impact against its floor (issue 33)', ''];
  lines.push('Fresh processes, no daemon, facts cache emptied before each tug run; the three measured one after the other in each repetition, medians. "floor" = `node -e` (started without NODE_EXTRA_CA_CERTS, as tug starts Node) that runs `git grep -l -F` for the two names and then a `python3` that `ast.parse`s the files listed. CPU = user + system time of the whole process tree, which the machine\'s load does not inflate. "facts cached" = the same tug command run again right after, its facts in the cache: no Python worker, so Node\'s and git\'s share of the cold run.', '');
  lines.push(row(['subject', 'Python files', 'files mentioning the names', 'references', 'tug cold', 'floor', 'ast.parse of every file', 'tug / floor (≤ 1.5×)', 'tug / parse-all (≤ 0.4×)', 'CPU: tug / floor / parse-all', 'CPU ratios: ÷ floor, ÷ parse-all', 'CPU with facts cached, ÷ floor', 'peak RSS (≤ 150 MB)', 'load average']));
  lines.push(row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const r of results) {
    const cpu = `${fmt(r.tugCpu)} / ${fmt(r.floorCpu)} / ${fmt(r.parseAllCpu)}`;
    const cpuRatios = `${(r.tugCpu / r.floorCpu).toFixed(2)}×, ${(r.tugCpu / r.parseAllCpu).toFixed(2)}×`;
    const cachedCell = `${fmt(r.cachedCpu)}, ${(r.cachedCpu / r.floorCpu).toFixed(2)}×`;
    lines.push(row([r.name, r.files, r.mentioning, r.references, fmt(r.tug), fmt(r.floor), fmt(r.parseAll), `${(r.tug / r.floor).toFixed(2)}×`, `${(r.tug / r.parseAll).toFixed(2)}×`, cpu, cpuRatios, cachedCell, mb(r.rss), r.load]));
  }
  lines.push('');
  return lines.join('\n');
}

/**
 * jedi as it runs the first time: its parse cache (parso's pickled trees of the project, the standard library and
 * typeshed, ~/.cache/jedi) in a new folder, as tug's cold run has no facts cache. The headline compares with jedi as
 * JEDI runs it, its cache kept from the runs before.
 */
const JEDI_NO_CACHE = `import sys, jedi\njedi.settings.cache_directory = sys.argv.pop()\n${JEDI}`;

function jediWithoutCache(args) {
  const cache = mkdtempSync(path.join(os.tmpdir(), 'tug-bench-jedi-'));
  try {
    return cpuTimed('python3', ['-c', JEDI_NO_CACHE, ...args, cache]);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/** A mid-size real package (60–100 modules) against jedi: pytest's own sources as Debian ships them. */
export function packageBench(runs) {
  const found = debianPackageRepo('python3-pytest', '_pytest');
  if (!found) return null;
  const file = '_pytest/_code/code.py';
  const s = { name: `pytest ${found.version} (Debian python3-pytest, \`_pytest\`): function \`getfslineno\``, repo: found.repo, file, ...locate(found.repo, file, 'def getfslineno(', 'getfslineno'), from: 'getfslineno', to: 'source_location' };
  const tug = [];
  const jedi = [];
  const cached = [];
  const jediCold = [];
  const loads = [];
  let tugRefs = 0;
  let jediRefs = 0;
  for (let i = 0; i < runs; i++) {
    loads.push(load());
    clean(s.repo);
    const run = cpuTimed(TUG, analyzeArgs(s), { cwd: s.repo, env: NO_DAEMON });
    tug.push(run);
    tugRefs = JSON.parse(run.stdout).references.length;
    cached.push(cpuTimed(TUG, analyzeArgs(s), { cwd: s.repo, env: NO_DAEMON }).cpu);
    const jediArgs = [s.repo, s.file, String(s.line), String(s.col), s.to];
    const j = cpuTimed('python3', ['-c', JEDI, ...jediArgs]);
    jedi.push(j);
    jediRefs = JSON.parse(j.stdout).refs.length;
    jediCold.push(jediWithoutCache(jediArgs));
  }
  const ms = (runs) => median(runs.map((r) => r.ms));
  const cpu = (runs) => median(runs.map((r) => r.cpu));
  return { name: s.name, files: files(s.repo), tug: ms(tug), jedi: ms(jedi), jediCold: ms(jediCold), tugCpu: cpu(tug), jediCpu: cpu(jedi), cachedCpu: median(cached), tugRefs, jediRefs, load: loadText(loads) };
}

export function packageReport(r) {
  if (!r) return '';
  return [
    '### Cold analyze-impact on a 60–100-file package against jedi (`get_references` + `rename`, fresh process each)',
    '',
    'CPU = user + system time of the process tree; "facts cached" = the same tug command again right after, no worker. "jedi, no parse cache" = the same jedi run with its parse cache (~/.cache/jedi) in a new folder, as cold as tug\'s run.',
    '',
    row(['subject', 'Python files', 'tug cold', 'jedi', 'tug / jedi (≤ 0.5×)', 'jedi, no parse cache: tug ÷ it', 'CPU: tug / jedi', 'CPU ratio', 'CPU with facts cached, ÷ jedi', 'references tug / jedi', 'load average']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    row([r.name, r.files, fmt(r.tug), fmt(r.jedi), `${(r.tug / r.jedi).toFixed(2)}×`, `${fmt(r.jediCold)}: ${(r.tug / r.jediCold).toFixed(2)}×`, `${fmt(r.tugCpu)} / ${fmt(r.jediCpu)}`, `${(r.tugCpu / r.jediCpu).toFixed(2)}×`, `${fmt(r.cachedCpu)}, ${(r.cachedCpu / r.jediCpu).toFixed(2)}×`, `${r.tugRefs} / ${r.jediRefs}`, r.load]),
    '',
  ].join('\n');
}
