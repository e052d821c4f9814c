// A rename analysed on the files it can touch answers exactly as one analysed on every file: fixtures and a generated package.
import test, { type ExecutionContext } from 'ava';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { forgetRecent } from '../lib/core/memory.js';
import { loadPythonProject } from '../lib/python/load-project.js';
import { planPythonRename } from '../lib/python/rename-plan.js';
import { shutdownWorkers } from '../lib/python/worker-pool.js';
import { openWorkspace } from '../lib/ops/workspace/workspace.js';
import { PROJECT_ROOT } from './helpers/golden.js';
import { fixtureRepo, type RenameCase } from './helpers/rename-cases.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';

const manifest = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'fixtures', 'python', 'manifest.json'), 'utf8')) as { cases: RenameCase[] };

test.after.always(() => shutdownWorkers());

interface Outcome {
  answer: string;
  parsed: number;
}

/** The plan (or the error) as JSON, with the count of files parsed set apart: the one thing allowed to differ. */
async function plan(repo: TestRepo, at: string, to: string, flags: readonly string[], whole: boolean, fresh = true): Promise<Outcome> {
  if (fresh) forgetRecent();
  const ws = await openWorkspace({ workspace: repo.root }, { lock: false });
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const [file, line, col] = at.split(':');
  try {
    // A project loaded whole and kept in memory is what the rename then uses; otherwise it loads its candidates.
    if (whole) await loadPythonProject(ws.repo, ws.session, tree, undefined);
    // As a committed rename plans it: with the completeness check, on the case's own flags.
    const options = {
      renameStrings: flags.includes('--rename-strings'),
      renameComments: flags.includes('--rename-comments'),
      includeUnsure: flags.includes('--include-unsure'),
      keepAlias: flags.includes('--keep-alias'),
      check: true,
    };
    const { filesParsed, ...rest } = await planPythonRename(ws.repo, ws.session, tree, { file: file!, line: Number(line), col: Number(col) }, to, options);
    return { answer: JSON.stringify(rest), parsed: filesParsed };
  } catch (error) {
    const e = error as { code?: string; message?: string; details?: unknown };
    return { answer: JSON.stringify({ error: e.code ?? String(error), message: e.message, details: e.details }), parsed: -1 };
  } finally {
    await ws.close();
  }
}

async function compare(t: ExecutionContext, repo: TestRepo, at: string, to: string, flags: readonly string[] = []): Promise<Outcome> {
  await repo.git('clean', '-fdxq');
  await repo.git('checkout', '-q', '.');
  // An empty facts cache, so the count of files parsed is the count the candidate load read.
  await rm(path.join(repo.root, '.git', 'tug', 'facts'), { recursive: true, force: true });
  const partial = await plan(repo, at, to, flags, false);
  const whole = await plan(repo, at, to, flags, true);
  t.is(partial.answer, whole.answer, `${at} -> ${to}`);
  if (process.env["TUG_TEST_SHOW"]) t.log(at, to, partial.parsed, partial.answer.slice(0, 300));
  return partial;
}

test('every Python fixture case plans the same from its candidate files as from every file', async (t) => {
  const repos = new Map<string, TestRepo>();
  for (const c of manifest.cases) {
    const repo = repos.get(c.workspace) ?? (await fixtureRepo('python', c.workspace));
    repos.set(c.workspace, repo);
    await compare(t, repo, c.at, c.to, c.flags ?? []);
  }
  for (const repo of repos.values()) await repo.cleanup();
});

/** A package where resolving a rename needs files that never mention it: middle classes, re-exports, star imports, dotted chains. */
function generatedPackage(): Record<string, string> {
  const files: Record<string, string> = {
    'src/shop/__init__.py': 'from .util import tidy\nfrom .core import *\n',
    'src/shop/util.py': 'def tidy(text, strip=True):\n    return text.strip() if strip else text\n',
    'src/shop/core/__init__.py': 'from .base import *\nfrom .middle import Middle\n',
    'src/shop/core/base.py': '__all__ = ["Base", "Options"]\n\n\nclass Options:\n    def enable(self, flag):\n        return flag\n\n\nclass Base:\n    def __init__(self):\n        self.opts = Options()\n\n    def process(self, item):\n        return item\n',
    'src/shop/core/middle.py': 'from .base import Base\n\n\nclass Middle(Base):\n    pass\n',
    'src/shop/leaf.py': 'from shop.core import Middle\n\n\nclass Leaf(Middle):\n    def process(self, item):\n        return super().process(item) * 2\n\n    def finish(self):\n        return 0\n',
    'src/shop/deep/__init__.py': '',
    'src/shop/deep/tools.py': 'def polish(x):\n    return x\n',
    'app/main.py': [
      'import shop',
      'import shop.deep.tools',
      'from shop import *',
      'from shop.leaf import Leaf',
      '',
      '',
      'def run(value):',
      '    leaf = Leaf()',
      '    leaf.opts.enable(True)',
      '    shop.tidy(" x ", strip=False)',
      '    tidy("y")',
      '    return shop.deep.tools.polish(leaf.process(value))',
      '',
    ].join('\n'),
  };
  for (let i = 0; i < 30; i++) files[`src/shop/filler/m${i}.py`] = `class Filler${i}:\n    def size(self):\n        return ${i}\n`;
  files['src/shop/filler/__init__.py'] = '';
  return files;
}

test('a generated package plans the same from its candidate files, and parses fewer of them', async (t) => {
  const repo = await makeRepo(generatedPackage());
  const total = Object.keys(generatedPackage()).length;
  const cases: Array<[string, string]> = [
    ['src/shop/core/base.py:13:9', 'handle'], // a method overridden below a class that never names it
    ['app/main.py:11:5', 'clean'], // a function re-exported by the package and reached through a star import
    ['app/main.py:10:22', 'keep'], // a keyword argument through the package's re-export
    ['src/shop/core/base.py:5:9', 'turn_on'], // a method reached through an instance attribute
    ['app/main.py:12:28', 'shine'], // a function reached through a dotted module chain
    ['src/shop/core/base.py:13:9', 'finish'], // the new name is taken by a subclass: a conflict
    ['src/shop/deep/tools.py:1:5', 'size'], // the new name is everywhere: more candidates, same answer
    ['app/main.py:2:13', 'utils'], // a module: the whole repository is read
  ];
  const parsed: number[] = [];
  for (const [at, to] of cases) parsed.push((await compare(t, repo, at, to)).parsed);
  t.true(parsed[0]! > 0 && parsed[0]! < total / 2, `the method rename parsed ${parsed[0]} of ${total} files`);
  t.true(parsed[1]! > 0 && parsed[1]! < total / 2, `the function rename parsed ${parsed[1]} of ${total} files`);
  // A second cursor on the same names in the same process starts from the first one's project in memory.
  const first = await plan(repo, 'src/shop/core/base.py:13:9', 'handle', [], false);
  const again = await plan(repo, 'src/shop/leaf.py:5:9', 'handle', [], false, false);
  t.is(again.parsed, 0, 'nothing parsed again');
  t.is(again.answer, first.answer, 'the same method from its override');
  t.is(again.answer, (await plan(repo, 'src/shop/leaf.py:5:9', 'handle', [], true)).answer);
  t.true(parsed[6]! > total / 2, `a new name written in most files brings them in: ${parsed[6]} of ${total}`);
  await repo.cleanup();
});
