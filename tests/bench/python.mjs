// Python rename benchmark: tug analyze-impact (cold and warm facts cache) against jedi's references/rename on the same symbol.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cachedRepo, fmt, inProcessTimes, median, ROOT, row, timed, TUG, waitForDaemon } from './lib.mjs';
import { mb, peakRss } from './rss.mjs';
import { debianPackageRepo, locate } from './debian-package.mjs';

const MODULES = 200;

export const JEDI = `
import json, sys, time
import jedi
root, file, line, col, new = sys.argv[1:6]
started = time.perf_counter()
project = jedi.Project(root)
script = jedi.Script(path=f"{root}/{file}", project=project)
refs = script.get_references(int(line), int(col) - 1, scope="project")
refactoring = script.rename(int(line), int(col) - 1, new_name=new)
changed = refactoring.get_changed_files()
elapsed = time.perf_counter() - started
print(json.dumps({"seconds": elapsed, "files": len(changed),
  "refs": sorted({(str(r.module_path.relative_to(root)), r.line, r.column + 1) for r in refs if r.module_path})}))
`;

function generatePackage(dir) {
  mkdirSync(path.join(dir, 'pkg'), { recursive: true });
  writeFileSync(path.join(dir, 'pkg', '__init__.py'), '');
  writeFileSync(path.join(dir, 'pkg', 'base.py'), 'class Base:\n    def process(self, x):\n        return x\n\n\ndef shared_helper(x):\n    return x + 1\n');
  for (let i = 0; i < MODULES; i++) {
    const id = String(i).padStart(3, '0');
    const prev = String(i - 1).padStart(3, '0');
    const lines = ['from pkg.base import Base, shared_helper'];
    if (i > 0) lines.push(`from pkg.m${prev} import Thing${prev}`);
    lines.push('', '', `class Thing${id}(Base):`, '    def process(self, x):', `        return shared_helper(x) + ${i}`, '', '');
    lines.push(`def make${id}() -> Thing${id}:`, `    return Thing${id}()`, '', '');
    lines.push(`def use${id}():`, `    return make${id}().process(shared_helper(${i}))`, '');
    if (i > 0) lines.push('', `def chain${id}():`, `    return Thing${prev}().process(${i})`, '');
    writeFileSync(path.join(dir, 'pkg', `m${id}.py`), lines.join('\n'));
  }
}

function realisticCopy(dir) {
  cpSync(path.join(ROOT, 'fixtures', 'python', 'realistic'), dir, { recursive: true });
}

/** Pygments as Debian ships it: ~300 modules, a function used by a handful of them. */
function pygmentsSubject() {
  const found = debianPackageRepo('python3-pygments', 'pygments');
  if (!found) return null;
  const file = 'pygments/lexers/__init__.py';
  return { name: `Pygments ${found.version} (Debian python3-pygments, 299 modules): function \`get_lexer_by_name\``, repo: () => found.repo, file, ...locate(found.repo, file, 'def get_lexer_by_name(', 'get_lexer_by_name'), to: 'lexer_named' };
}

const SUBJECTS = () => [
  { name: 'realistic fixture: method `Order.total`', repo: () => cachedRepo('py-realistic', realisticCopy), file: 'shop/models.py', line: 25, col: 9, to: 'grand_total' },
  { name: `generated package (${MODULES + 2} modules): function \`shared_helper\``, repo: () => cachedRepo(`py-generated-${MODULES}`, generatePackage), file: 'pkg/base.py', line: 6, col: 5, to: 'common_helper' },
  pygmentsSubject(),
].filter(Boolean);

export function pythonBench(runs) {
  return SUBJECTS().map((subject) => {
    const repo = subject.repo();
    const at = `${subject.file}:${subject.line}:${subject.col}`;
    const analyze = () => timed(TUG, ['analyze-impact', 'rename-symbol', '--at', at, '--to', subject.to, '--json'], { cwd: repo });
    const cold = [];
    const warm = [];
    const jedi = [];
    let tugRefs = [];
    let jediRefs = [];
    for (let i = 0; i < runs; i++) {
      timed(TUG, ['clean', '--cache', '--json'], { cwd: repo });
      const first = analyze();
      cold.push(first.ms);
      warm.push(analyze().ms);
      tugRefs = JSON.parse(first.stdout).references.map((r) => `${r.location.file}:${r.location.line}:${r.location.col}`);
      const j = timed('python3', ['-c', JEDI, repo, subject.file, String(subject.line), String(subject.col), subject.to]);
      jedi.push(j.ms);
      jediRefs = JSON.parse(j.stdout).refs.map(([file, line, col]) => `${file}:${line}:${col}`);
    }
    // Memory on a run of its own: the sampler's polling would otherwise slow the timed runs.
    timed(TUG, ['clean', '--cache', '--json'], { cwd: repo });
    const coldRss = peakRss(TUG, ['analyze-impact', 'rename-symbol', '--at', at, '--to', subject.to, '--json'], { cwd: repo });
    // What a user gets by default: the first call starts the repository's daemon, later calls are served by it.
    const auto = { env: { ...process.env, TUG_DAEMON_AUTOSTART: '1' } };
    const viaDaemon = () => timed(TUG, ['analyze-impact', 'rename-symbol', '--at', at, '--to', subject.to, '--json'], { cwd: repo, ...auto });
    timed(TUG, ['daemon', 'stop', '--json'], { cwd: repo, ...auto });
    viaDaemon();
    waitForDaemon(repo, auto);
    const [daemon, daemonCold] = (() => {
      try {
        const warmTimes = [];
        const coldTimes = [];
        for (let i = 0; i < runs; i++) {
          warmTimes.push(viaDaemon().ms);
          timed(TUG, ['clean', '--cache', '--json'], { cwd: repo, ...auto });
          coldTimes.push(viaDaemon().ms);
        }
        return [median(warmTimes), median(coldTimes)];
      } finally {
        timed(TUG, ['daemon', 'stop', '--json'], { cwd: repo, ...auto });
      }
    })();
    // The analysis inside one running process with the cache filled: what an MCP client or a library user waits.
    const inProcess = median(inProcessTimes('tug_analyze_impact', { workspace: repo, operation: 'rename_symbol', file: subject.file, line: subject.line, column: subject.col, new_name: subject.to }, runs));
    const onlyTug = tugRefs.filter((r) => !jediRefs.includes(r));
    const onlyJedi = jediRefs.filter((r) => !tugRefs.includes(r));
    return { name: subject.name, cold: median(cold), warm: median(warm), daemon, daemonCold, inProcess, jedi: median(jedi), coldRss, tugCount: tugRefs.length, jediCount: jediRefs.length, onlyTug, onlyJedi };
  });
}

export function pythonReport(results) {
  const lines = ['### Python rename: tug `analyze-impact` vs jedi (`get_references` + `rename`, fresh process each)', ''];
  lines.push(row(['subject', 'tug cold (empty facts cache)', 'tug warm', 'default, daemon: empty cache', 'default, daemon: warm', 'in-process: warm', 'jedi', 'cold / jedi', 'daemon cold / jedi', 'references tug / jedi', 'peak RSS cold (node + workers)']));
  lines.push(row(['---', '---', '---', '---', '---', '---', '---', '---', '---', '---', '---']));
  for (const r of results) {
    lines.push(
      row([r.name, fmt(r.cold), fmt(r.warm), fmt(r.daemonCold), fmt(r.daemon), fmt(r.inProcess), fmt(r.jedi), `${(r.cold / r.jedi).toFixed(2)}×`, `${(r.daemonCold / r.jedi).toFixed(2)}×`, `${r.tugCount} / ${r.jediCount}`, mb(r.coldRss)]),
    );
  }
  lines.push('');
  const verdict = (ok) => (ok ? 'met' : 'missed');
  for (const r of results) {
    lines.push(`- ${r.name}: cold ≤ 1.0× jedi ${verdict(r.cold <= r.jedi)} (${(r.cold / r.jedi).toFixed(2)}×); warm ≤ 0.3 s through the daemon ${verdict(r.daemon <= 300)} (${fmt(r.daemon)}), in-process ${verdict(r.inProcess <= 300)} (${fmt(r.inProcess)}).`);
  }
  for (const r of results) {
    if (r.onlyTug.length + r.onlyJedi.length === 0) lines.push(`- ${r.name}: identical reference sets.`);
    else lines.push(`- ${r.name}: only tug: ${r.onlyTug.slice(0, 12).join(', ') || 'none'}${r.onlyTug.length > 12 ? ` (+${r.onlyTug.length - 12})` : ''}; only jedi: ${r.onlyJedi.slice(0, 12).join(', ') || 'none'}${r.onlyJedi.length > 12 ? ` (+${r.onlyJedi.length - 12})` : ''}.`);
  }
  lines.push('');
  return lines.join('\n');
}
