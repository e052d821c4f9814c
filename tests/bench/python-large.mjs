// Cold analysis on a large generated repository (660 modules, ~170k lines): tug against parsing every file with ast.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cachedRepo, fmt, inProcessTimes, median, prng, row, timed, TUG, waitForDaemon } from './lib.mjs';
import { mb, peakRss } from './rss.mjs';

const PACKAGES = 22;
const PER_PACKAGE = 30;
/** One module in this many calls the renamed helper; the rest never mention it. */
const HELPER_EVERY = 25;

/** Reads and parses every .py file under a directory: what any analysis that reads the whole repository pays at least. */
export const PARSE_ALL = `
import ast, os, sys
count = 0
for base, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = [d for d in dirs if d != ".git"]
    for name in files:
        if name.endswith(".py"):
            with open(os.path.join(base, name), "rb") as f:
                try:
                    ast.parse(f.read())
                except (SyntaxError, ValueError):  # a real repository may hold a file that does not parse (a test's data)
                    pass
            count += 1
print(count)
`;

function classBlock(random, module, k, base) {
  const n = random() % 7;
  return [
    `class Widget${module}_${k}(${base}):`,
    `    """A generated widget, number ${k} of module ${module}."""`,
    '',
    `    limit: int = ${n + 3}`,
    '',
    '    def __init__(self, value: int, name: str = "w") -> None:',
    '        super().__init__(value)',
    '        self.name = name',
    `        self.scale = ${random() % 100}`,
    '',
    `    def compute_${k}(self, x: int) -> int:`,
    '        total = 0',
    '        for i in range(x):',
    '            if i % 3 == 0:',
    '                total += i * self.value',
    '            elif i % 3 == 1:',
    '                total -= i + self.scale',
    '            else:',
    '                total ^= i',
    '        return total',
    '',
    '    def describe(self) -> str:',
    '        parts = [self.name, str(self.value), str(self.scale)]',
    `        return ", ".join(p for p in parts if p) + "${'!'.repeat(n)}"`,
    '',
    '    @property',
    '    def doubled(self) -> int:',
    '        return self.value * 2',
    '',
    '',
  ];
}

function functionBlock(random, module, k, callsHelper) {
  const body = callsHelper ? `    return rare_helper(a) + b * ${k}` : `    return sum(x * ${random() % 9 + 1} for x in range(a)) + b`;
  return [`def make_${module}_${k}(a: int, b: int = ${random() % 5}) -> int:`, `    """Builds value ${k}."""`, '    if a < 0:', '        raise ValueError(a)', body, '', ''];
}

function generateLarge(dir) {
  const random = prng(42);
  const root = path.join(dir, 'big');
  mkdirSync(path.join(root, 'core'), { recursive: true });
  writeFileSync(path.join(root, '__init__.py'), '"""A large generated package."""\n');
  writeFileSync(path.join(root, 'core', '__init__.py'), 'from big.core.base import Base\n');
  writeFileSync(path.join(root, 'core', 'base.py'), 'class Base:\n    def __init__(self, value: int) -> None:\n        self.value = value\n');
  writeFileSync(path.join(root, 'core', 'util.py'), 'def rare_helper(x: int) -> int:\n    """The helper the benchmark renames."""\n    return x + 1\n');
  let index = 0;
  for (let p = 0; p < PACKAGES; p++) {
    const pkg = path.join(root, `pkg${String(p).padStart(2, '0')}`);
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, '__init__.py'), `"""Package ${p}."""\n`);
    for (let m = 0; m < PER_PACKAGE; m++, index++) {
      const module = `${p}_${m}`;
      const callsHelper = index % HELPER_EVERY === 0;
      const lines = ['"""A generated module."""', 'from __future__ import annotations', '', 'import os', 'from big.core import Base'];
      if (callsHelper) lines.push('from big.core.util import rare_helper');
      if (m > 0) lines.push(`from big.pkg${String(p).padStart(2, '0')}.mod${m - 1} import Widget${p}_${m - 1}_0`);
      lines.push('', '');
      for (let k = 0; k < 8; k++) lines.push(...classBlock(random, module, k, k === 0 && m > 0 ? `Widget${p}_${m - 1}_0` : 'Base'));
      for (let k = 0; k < 4; k++) lines.push(...functionBlock(random, module, k, callsHelper && k === 0));
      lines.push(`PATH = os.path.join("data", "${module}")`, '');
      writeFileSync(path.join(pkg, `mod${m}.py`), lines.join('\n'));
    }
  }
}

export const LARGE = { name: `large generated repository (${PACKAGES * PER_PACKAGE + PACKAGES + 4} modules): function \`rare_helper\``, file: 'big/core/util.py', line: 1, col: 5, to: 'scarce_helper' };

export function largeBench(runs) {
  const repo = cachedRepo(`py-large-${PACKAGES}x${PER_PACKAGE}`, generateLarge);
  const lines = Number(timed('sh', ['-c', "git ls-files '*.py' | xargs cat | wc -l"], { cwd: repo }).stdout.trim());
  const modules = Number(timed('sh', ['-c', "git ls-files '*.py' | wc -l"], { cwd: repo }).stdout.trim());
  const args = ['analyze-impact', 'rename-symbol', '--at', `${LARGE.file}:${LARGE.line}:${LARGE.col}`, '--to', LARGE.to, '--json'];
  const clean = () => timed(TUG, ['clean', '--cache', '--json'], { cwd: repo });
  const cold = [];
  const warm = [];
  const parseAll = [];
  let references = 0;
  for (let i = 0; i < runs; i++) {
    clean();
    const first = timed(TUG, args, { cwd: repo });
    cold.push(first.ms);
    references = JSON.parse(first.stdout).references.length;
    warm.push(timed(TUG, args, { cwd: repo }).ms);
    parseAll.push(timed('python3', ['-c', PARSE_ALL, repo]).ms);
  }
  clean();
  const coldRss = peakRss(TUG, args, { cwd: repo });
  const warmRss = peakRss(TUG, args, { cwd: repo });
  // Warm as users get it by default: the first call starts the daemon, later ones are served by it.
  const auto = { cwd: repo, env: { ...process.env, TUG_DAEMON_AUTOSTART: '1' } };
  timed(TUG, ['daemon', 'stop', '--json'], auto);
  timed(TUG, args, auto);
  waitForDaemon(repo, auto);
  const daemon = [];
  try {
    for (let i = 0; i < runs; i++) daemon.push(timed(TUG, args, auto).ms);
  } finally {
    timed(TUG, ['daemon', 'stop', '--json'], auto);
  }
  const at = `${LARGE.file}:${LARGE.line}:${LARGE.col}`;
  const inProcess = median(inProcessTimes('tug_analyze_impact', { workspace: repo, operation: 'rename_symbol', file: LARGE.file, line: LARGE.line, column: LARGE.col, new_name: LARGE.to }, runs));
  return { name: LARGE.name, modules, lines, cold: median(cold), warm: median(warm), daemon: median(daemon), inProcess, parseAll: median(parseAll), coldRss, warmRss, references };
}

export function largeReport(r) {
  const lines = ['### Python cold analysis on a large repository: tug `analyze-impact` vs `ast.parse` of every file (fresh process each)', ''];
  lines.push(`${r.modules} modules, ${r.lines.toLocaleString('en-US')} lines; ${r.references} references found.`, '');
  lines.push(row(['subject', 'tug cold (empty facts cache)', 'tug warm (no daemon)', 'default, daemon: warm', 'in-process: warm', 'ast.parse of every file', 'cold / parse-all', 'peak RSS cold (node + workers)', 'peak RSS warm']));
  lines.push(row(['---', '---', '---', '---', '---', '---', '---', '---', '---']));
  lines.push(row([r.name, fmt(r.cold), fmt(r.warm), fmt(r.daemon), fmt(r.inProcess), fmt(r.parseAll), `${(r.cold / r.parseAll).toFixed(2)}×`, mb(r.coldRss), mb(r.warmRss)]));
  const verdict = (ok) => (ok ? 'met' : 'missed');
  lines.push('');
  lines.push(`- Targets: cold ≤ 1.0× parse-all ${verdict(r.cold <= r.parseAll)} (${(r.cold / r.parseAll).toFixed(2)}×); peak RSS ≤ 250 MB ${verdict(r.coldRss <= 250 * 1024 * 1024)} (${mb(r.coldRss)}); warm ≤ 0.3 s through the daemon ${verdict(r.daemon <= 300)} (${fmt(r.daemon)}), in-process ${verdict(r.inProcess <= 300)} (${fmt(r.inProcess)}), as a fresh process without a daemon ${verdict(r.warm <= 300)} (${fmt(r.warm)}).`);
  lines.push('');
  return lines.join('\n');
}
