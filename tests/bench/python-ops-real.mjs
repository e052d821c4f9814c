// The Python refactors against rope on a real package rather than a fixture: Jinja2 from Debian's python3-jinja2
// (about 14,000 lines in 25 modules), copied into a repository under /tmp with one empty module as a move destination
// (rope moves only into a module that exists). Each tool computes the change without writing it, in a fresh process.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { debianPackageRepo } from './debian-package.mjs';
import { cachedRepo, fmt, median, NO_DAEMON, row, timed, TUG } from './lib.mjs';

const ROPE_PYTHON = '/usr/bin/python3';

const ROPE = `
import sys
from rope.base.project import Project
root, op, file, a, b, arg = sys.argv[1:7]
project = Project(root, ropefolder=None)
resource = project.get_resource(file)
if op == "extract-variable":
    from rope.refactor.extract import ExtractVariable
    changes = ExtractVariable(project, resource, int(a), int(b)).get_changes(arg)
elif op == "inline":
    from rope.refactor.inline import create_inline
    changes = create_inline(project, resource, int(a)).get_changes()
elif op == "organize-imports":
    from rope.refactor.importutils import ImportOrganizer
    changes = ImportOrganizer(project).organize_imports(resource)
elif op == "change-signature":
    from rope.refactor.change_signature import ChangeSignature, ArgumentReorderer
    changes = ChangeSignature(project, resource, int(a)).get_changes([ArgumentReorderer([int(i) for i in arg.split(",")])])
else:
    from rope.refactor.move import create_move
    changes = create_move(project, resource, int(a)).get_changes(project.get_resource(arg))
print(len(changes.get_changed_resources()))
`;

// url_quote(obj, charset="utf-8", for_qs=False): called from filters.py by position and keyword.
const CASES = [
  { op: 'extract-variable', file: 'jinja2/utils.py', range: [717, 20, 717, 34], name: 'advanced' },
  { op: 'inline', file: 'jinja2/environment.py', at: [1404, 9] },
  // _environment_config_check(environment): asserts, called once from Environment.__init__.
  { op: 'inline', label: 'inline (function)', file: 'jinja2/environment.py', at: [124, 5] },
  { op: 'change-signature', file: 'jinja2/utils.py', at: [400, 5], params: [{ name: 'obj' }, { name: 'for_qs', default: 'False' }, { name: 'charset', default: '"utf-8"' }], order: '0,2,1' },
  { op: 'move-symbol', file: 'jinja2/utils.py', at: [400, 5], destination: 'jinja2/urls.py' },
  // The largest module (1,900 lines, 31 imports in sections ruff orders differently from Jinja2's isort settings).
  { op: 'organize-imports', file: 'jinja2/compiler.py' },
];

function tugArgs(c) {
  if (c.op === 'organize-imports') return ['--file', c.file];
  if (c.range) return ['--range', `${c.file}:${c.range[0]}:${c.range[1]}-${c.range[2]}:${c.range[3]}`, '--name', c.name];
  const at = ['--at', `${c.file}:${c.at[0]}:${c.at[1]}`];
  if (c.params) return [...at, '--params', JSON.stringify(c.params)];
  if (c.destination) return [...at, '--destination', c.destination];
  return at;
}

function offset(repo, file, line, col) {
  return readFileSync(path.join(repo, file), 'utf8').split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + col - 1;
}

function ropeArgs(repo, c) {
  if (c.op === 'organize-imports') return ['0', '0', '-'];
  if (c.range) return [String(offset(repo, c.file, c.range[0], c.range[1])), String(offset(repo, c.file, c.range[2], c.range[3])), c.name];
  const at = String(offset(repo, c.file, c.at[0], c.at[1]));
  return [at, '0', c.order ?? c.destination ?? '-'];
}

/** Jinja2 with an empty jinja2/urls.py, or null when python3-jinja2 cannot be had. */
function jinjaRepo() {
  const source = debianPackageRepo('python3-jinja2', 'jinja2');
  if (!source) return null;
  const repo = cachedRepo(`py-ops-jinja2-${source.version.replace(/[^\w.-]/g, '_')}`, (dir) => {
    cpSync(path.join(source.repo, 'jinja2'), path.join(dir, 'jinja2'), { recursive: true });
    writeFileSync(path.join(dir, 'jinja2', 'urls.py'), '');
  });
  return { repo, version: source.version };
}

export function pythonOpsRealBench(runs) {
  const jinja = jinjaRepo();
  if (!jinja) return { version: null, rows: [] };
  const rope = existsSync(ROPE_PYTHON) && timed(ROPE_PYTHON, ['-c', 'import rope'], { allowFailure: true }).status === 0;
  const rows = CASES.map((c) => {
    const cold = [];
    const again = [];
    const ropeCold = [];
    for (let i = 0; i < runs; i++) {
      timed(TUG, ['clean', '--json'], { cwd: jinja.repo, env: NO_DAEMON });
      cold.push(timed(TUG, ['analyze-impact', c.op, ...tugArgs(c), '--json'], { cwd: jinja.repo, env: NO_DAEMON }).ms);
      again.push(timed(TUG, ['analyze-impact', c.op, ...tugArgs(c), '--json'], { cwd: jinja.repo, env: NO_DAEMON }).ms);
      if (rope) {
        rmSync(path.join(jinja.repo, '.ropeproject'), { recursive: true, force: true });
        ropeCold.push(timed(ROPE_PYTHON, ['-c', ROPE, jinja.repo, c.op, c.file, ...ropeArgs(jinja.repo, c)]).ms);
      }
    }
    return { op: c.label ?? c.op, cold: median(cold), again: median(again), rope: rope ? median(ropeCold) : null };
  });
  return { version: jinja.version, rows };
}

export function pythonOpsRealReport(result) {
  if (result.version === null) return '### Python refactors vs rope on Jinja2\n\npython3-jinja2 could not be installed; not measured.\n';
  const lines = [
    `### Python refactors vs rope on Jinja2 (Debian python3-jinja2 ${result.version})`,
    '',
    'The same refactors on a real package: `tug analyze-impact <op>` as a fresh process after `tug clean` (cold) and again, against rope in a fresh process with no `.ropeproject`. Ratios below 1 mean tug is faster.',
    '',
    row(['operation', 'tug cold', 'tug again', 'rope cold', 'tug cold / rope']),
    row(['---', '---:', '---:', '---:', '---:']),
  ];
  for (const r of result.rows) lines.push(row([r.op, fmt(r.cold), fmt(r.again), r.rope === null ? 'rope not installed' : fmt(r.rope), r.rope === null ? '–' : (r.cold / r.rope).toFixed(2)]));
  return lines.join('\n');
}
