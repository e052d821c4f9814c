// A rename's cold analysis reads only what it needs: the files git grep finds mentioning its names, never every blob of
// the tree, no package `__init__` nothing looks up, and no base class of a class that has nothing to do with the name.
import test from 'ava';
import { forgetRecent } from '../lib/core/memory.js';
import { loadPythonProject, withPythonProject } from '../lib/python/load-project.js';
import { planPythonRename } from '../lib/python/rename-plan.js';
import { shutdownWorkers } from '../lib/python/worker-pool.js';
import { openWorkspace } from '../lib/ops/workspace/workspace.js';
import { makeRepo } from './helpers/repo.js';

test.after.always(() => shutdownWorkers());

const FILES: Record<string, string> = {
  'lib/__init__.py': '',
  'lib/util.py': 'def make_temp(suffix=""):\n    return "tmp" + suffix\n',
  // Uses the function, and defines a class whose base lives in a module that never mentions it; the class's
  // `__getattr__` hook makes the analysis ask whether a lookup of the name can reach it.
  'lib/server.py': 'from lib.util import make_temp\nfrom lib.handlers import BaseHandler\n\n\nclass Handler(BaseHandler):\n    def handle(self):\n        return make_temp(".log")\n\n    def __getattr__(self, name):\n        return None\n',
  'lib/handlers.py': 'from lib.bases import Root\n\n\nclass BaseHandler(Root):\n    def handle(self):\n        return None\n',
  'lib/bases.py': 'class Root:\n    pass\n',
};
for (let i = 0; i < 20; i++) FILES[`lib/other${i}.py`] = `class Other${i}:\n    def size(self):\n        return ${i}\n`;

async function open(files: Record<string, string | Uint8Array>) {
  const repo = await makeRepo(files);
  const ws = await openWorkspace({ workspace: repo.root }, { lock: false });
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  return { repo, ws, tree };
}

test('a function rename reads the files that mention it, not every blob, nor their packages, nor unrelated base classes', async (t) => {
  forgetRecent();
  const { repo, ws, tree } = await open(FILES);
  try {
    // From an empty facts cache, what the rename parses is what it loaded.
    const planned = await planPythonRename(ws.repo, ws.session, tree, { file: 'lib/util.py', line: 1, col: 5 }, 'new_temp', {});
    t.is(planned.filesParsed, 2, 'lib/server.py and lib/util.py: not lib/__init__.py (nothing looks it up), nor the modules of Handler\'s bases');
    forgetRecent();
    const seen = await withPythonProject(ws.repo, ws.session, tree, undefined, { at: { file: 'lib/util.py', line: 1, col: 5 }, newName: 'new_temp' }, (loaded) => ({
      read: [...loaded.bytesOf.keys()].sort(),
      loaded: [...loaded.project.files.keys()].sort(),
    }));
    t.deepEqual(seen.read, ['lib/server.py', 'lib/util.py']);
    t.deepEqual(seen.loaded, ['lib/server.py', 'lib/util.py']);
    // And the answer is the one a load of every file gives.
    const at = { file: 'lib/util.py', line: 1, col: 5 };
    forgetRecent();
    const { filesParsed: _p, ...partial } = await planPythonRename(ws.repo, ws.session, tree, at, 'new_temp', { check: true });
    forgetRecent();
    await loadPythonProject(ws.repo, ws.session, tree, undefined);
    const { filesParsed: _w, ...whole } = await planPythonRename(ws.repo, ws.session, tree, at, 'new_temp', { check: true });
    t.deepEqual(partial, whole);
  } finally {
    await ws.close();
    await repo.cleanup();
  }
});

test('a package `__init__` that never mentions the name is read once a lookup needs it, and the plan is a whole load\'s', async (t) => {
  forgetRecent();
  const { repo, ws, tree } = await open({
    // Re-exports the function without naming it: `from pkg import make_temp` and `pkg.make_temp` resolve through it.
    'pkg/__init__.py': 'from pkg.impl import *\n',
    'pkg/impl.py': 'def make_temp():\n    return 1\n',
    'pkg/sub/__init__.py': 'from pkg.sub.deep import *\n',
    'pkg/sub/deep.py': 'from pkg.impl import make_temp as make_temp\n',
    'app.py': 'import pkg\nimport pkg.impl\nfrom pkg import make_temp\nfrom pkg.sub import make_temp as mt\n\nprint(make_temp(), pkg.impl.make_temp(), pkg.make_temp(), mt())\n',
    'other.py': 'X = 1\n',
  });
  try {
    const at = { file: 'pkg/impl.py', line: 1, col: 5 };
    // Cold: the three files that mention it, then the two packages the analysis looked up; never other.py.
    const { filesParsed, ...partial } = await planPythonRename(ws.repo, ws.session, tree, at, 'new_temp', { check: true });
    forgetRecent();
    await loadPythonProject(ws.repo, ws.session, tree, undefined);
    const { filesParsed: _w, ...whole } = await planPythonRename(ws.repo, ws.session, tree, at, 'new_temp', { check: true });
    t.is(filesParsed, 5);
    t.deepEqual(partial, whole);
    const edited = JSON.stringify(partial);
    for (const file of ['app.py', 'pkg/impl.py', 'pkg/sub/deep.py']) t.true(edited.includes(file), file);
  } finally {
    await ws.close();
    await repo.cleanup();
  }
});

test('a file that is not UTF-8 is reported when the rename reads it (it mentions the name), and not read otherwise', async (t) => {
  forgetRecent();
  const files: Record<string, string | Uint8Array> = { ...FILES, 'lib/latin.py': Buffer.from('# caf\xe9\nfrom lib.util import make_temp\n', 'latin1'), 'lib/other_latin.py': Buffer.from('# na\xefve\nX = 1\n', 'latin1') };
  const { repo, ws, tree } = await open(files);
  try {
    const plan = await planPythonRename(ws.repo, ws.session, tree, { file: 'lib/util.py', line: 1, col: 5 }, 'new_temp', {});
    const skipped = plan.warnings.filter((w) => w.code === 'FileSkipped').map((w) => w.location?.file);
    t.deepEqual(skipped, ['lib/latin.py']);
  } finally {
    await ws.close();
    await repo.cleanup();
  }
});
