// Python refactors beyond rename, tug against rope (Debian python3-rope) on the same fixture packages: each computes the
// change without writing it (tug analyze-impact, rope's get_changes), cold (fresh process, no caches) and warm.
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cachedRepo, fmt, inProcessTimes, median, ROOT, NO_DAEMON, row, timed, TUG } from './lib.mjs';

/** rope is installed for Debian's interpreter, not necessarily for the one on PATH. */
const ROPE_PYTHON = '/usr/bin/python3';

const ROPE = `
import sys, time
started = time.perf_counter()
from rope.base.project import Project
from rope.refactor.extract import ExtractVariable
from rope.refactor.inline import create_inline
from rope.refactor.importutils import ImportOrganizer
from rope.refactor.change_signature import ChangeSignature, ArgumentReorderer
from rope.refactor.extract import ExtractMethod
from rope.refactor.move import create_move
root, op, file, a, b, name = sys.argv[1:7]
project = Project(root, ropefolder=None)
resource = project.get_resource(file)
if op == "extract-variable":
    changes = ExtractVariable(project, resource, int(a), int(b)).get_changes(name, similar=True)
elif op == "extract-function":
    changes = ExtractMethod(project, resource, int(a), int(b)).get_changes(name)
elif op == "move-symbol":
    changes = create_move(project, resource, int(a)).get_changes(project.get_resource(name))
elif op == "inline":
    changes = create_inline(project, resource, int(a)).get_changes()
elif op == "change-signature":
    changes = ChangeSignature(project, resource, int(a)).get_changes([ArgumentReorderer([int(i) for i in name.split(",")])])
else:
    changes = ImportOrganizer(project).organize_imports(resource)
print(round((time.perf_counter() - started) * 1000, 1), len(changes.get_changed_resources()) if changes else 0)
`;

function copy(fixture) {
  return (dir) => cpSync(path.join(ROOT, 'fixtures', 'python', fixture), dir, { recursive: true });
}

/** Character offset of a 1-based line and column (the fixtures are ASCII, so bytes and characters agree). */
function offset(repo, file, line, col) {
  const text = readFileSync(path.join(repo, file), 'utf8');
  return text.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + col - 1;
}

const CASES = [
  { op: 'extract-variable', fixture: 'local_ops', file: 'src/geometry/shapes.py', range: [76, 12, 76, 28], name: 'gap', flags: ['--all'] },
  { op: 'inline', fixture: 'local_ops', file: 'src/geometry/shapes.py', at: [42, 9] },
  { op: 'extract-function', fixture: 'extract_function', file: 'src/ledger/report.py', range: [12, 5, 14, 22], name: 'after_tax' },
  // Both tools move a function into an existing module and rewrite its importers.
  { op: 'move-symbol', fixture: 'move_symbol', file: 'src/shop/pricing.py', at: [30, 5], destination: 'src/shop/money.py' },
  { op: 'inline', label: 'inline (function)', fixture: 'inline_function', file: 'src/billing/amounts.py', at: [25, 5] },
  { op: 'organize-imports', fixture: 'imports_ops', file: 'src/inventory/store.py' },
  // price_with_tax(amount, rate=0.2, rounding=2) -> (amount, rounding=2, rate=0.2): a reorder both tools express.
  { op: 'change-signature', fixture: 'change_signature/shop', file: 'src/shop/prices.py', at: [4, 5], params: [{ name: 'amount' }, { name: 'rounding' }, { name: 'rate' }], order: '0,2,1' },
];

function tugArgs(c) {
  if (c.destination) return ['--at', `${c.file}:${c.at[0]}:${c.at[1]}`, '--destination', c.destination];
  if (c.range) return ['--range', `${c.file}:${c.range[0]}:${c.range[1]}-${c.range[2]}:${c.range[3]}`, '--name', c.name, ...(c.flags ?? [])];
  if (c.params) return ['--at', `${c.file}:${c.at[0]}:${c.at[1]}`, '--params', JSON.stringify(c.params)];
  if (c.at) return ['--at', `${c.file}:${c.at[0]}:${c.at[1]}`];
  return ['--file', c.file];
}

/** The same call as analyze-impact's MCP fields, for the in-process (MCP server, daemon, library) timing. */
function impactInput(repo, c) {
  const operation = c.op.replaceAll('-', '_');
  if (c.destination) return { workspace: repo, operation, file: c.file, line: c.at[0], column: c.at[1], destination: c.destination };
  if (c.range) return { workspace: repo, operation, file: c.file, line: c.range[0], column: c.range[1], end_line: c.range[2], end_column: c.range[3], new_name: c.name, ...(c.flags?.includes('--all') ? { all: true } : {}) };
  if (c.params) return { workspace: repo, operation, file: c.file, line: c.at[0], column: c.at[1], new_params: c.params };
  if (c.at) return { workspace: repo, operation, file: c.file, line: c.at[0], column: c.at[1] };
  return { workspace: repo, operation, file: c.file };
}

function ropeArgs(repo, c) {
  if (c.range) return [String(offset(repo, c.file, c.range[0], c.range[1])), String(offset(repo, c.file, c.range[2], c.range[3])), c.name];
  if (c.destination) return [String(offset(repo, c.file, c.at[0], c.at[1])), '0', c.destination];
  if (c.order) return [String(offset(repo, c.file, c.at[0], c.at[1])), '0', c.order];
  if (c.at) return [String(offset(repo, c.file, c.at[0], c.at[1])), '0', '-'];
  return ['0', '0', '-'];
}

export function pythonOpsBench(runs) {
  const rope = existsSync(ROPE_PYTHON) && timed(ROPE_PYTHON, ['-c', 'import rope'], { allowFailure: true }).status === 0;
  return CASES.map((c) => {
    const repo = cachedRepo(`py-ops-${c.fixture.replaceAll('/', '-')}`, copy(c.fixture));
    const analyze = () => timed(TUG, ['analyze-impact', c.op, ...tugArgs(c), '--json'], { cwd: repo, env: NO_DAEMON });
    const cold = [];
    const warm = [];
    const ropeCold = [];
    const ropeInside = [];
    for (let i = 0; i < runs; i++) {
      timed(TUG, ['clean', '--json'], { cwd: repo, env: NO_DAEMON });
      cold.push(analyze().ms);
      warm.push(analyze().ms);
      if (rope) {
        rmSync(path.join(repo, '.ropeproject'), { recursive: true, force: true });
        const run = timed(ROPE_PYTHON, ['-c', ROPE, repo, c.op, c.file, ...ropeArgs(repo, c)]);
        ropeCold.push(run.ms);
        ropeInside.push(Number(run.stdout.split(' ')[0]));
      }
    }
    const inProcess = median(inProcessTimes('tug_analyze_impact', impactInput(repo, c), runs));
    return { op: c.label ?? c.op, fixture: c.fixture, cold: median(cold), warm: median(warm), inProcess, rope: rope ? median(ropeCold) : null, ropeInside: rope ? median(ropeInside) : null };
  });
}

export function pythonOpsReport(results) {
  const lines = [
    '### Python refactors vs rope',
    '',
    'Each computes the change without writing it: `tug analyze-impact <op>` as a fresh process with no caches (cold: after `tug clean`), again as a fresh process, and inside one warm process (what the MCP server, the daemon or a library user waits), against rope 1.7 (`/usr/bin/python3`, Debian python3-rope) in a fresh process with no `.ropeproject` (its own time inside the process in brackets). Ratios below 1 mean tug is faster.',
    '',
    row(['operation', 'fixture', 'tug cold', 'tug again', 'tug in-process warm', 'rope cold', 'tug cold / rope']),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const r of results) {
    lines.push(row([r.op, r.fixture, fmt(r.cold), fmt(r.warm), fmt(r.inProcess), r.rope === null ? 'rope not installed' : `${fmt(r.rope)} (${fmt(r.ropeInside)})`, r.rope === null ? '–' : (r.cold / r.rope).toFixed(2)]));
  }
  return lines.join('\n');
}
