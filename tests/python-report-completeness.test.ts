// The completeness check on real parses: a planned rename with an edit dropped, a name that would dangle, a clean one.
import test from 'ava';
import { discoverRepo } from '../lib/git/repo.js';
import { openSession } from '../lib/session/session.js';
import { loadPythonProject } from '../lib/python/load-project.js';
import { leftOvers } from '../lib/python/completeness.js';
import { renamedProject } from '../lib/python/renamed-project.js';
import { shutdownWorkers } from '../lib/python/worker-pool.js';
import { resolvePython } from '../lib/python/interpreter.js';
import { lineStarts, offsetOf } from '../lib/core/text.js';
import type { EditRequest } from '../lib/core/patchset.js';
import { makeRepo } from './helpers/repo.js';

test.after.always(() => shutdownWorkers());

const FILES = {
  'pkg/__init__.py': 'from .core import emit\n\n__all__ = ["emit"]\n',
  'pkg/core.py': 'def emit(msg, flush=False):\n    return msg\n',
  'app.py': 'import pkg\nfrom pkg import emit\n\npkg.emit("a", flush=True)\nemit("b")\n',
};

/** Plans a rename at file:line:col the way the operation does, and returns what the check finds with `edit` applied to the edits. */
async function check(file: string, line: number, col: number, newName: string, edit: (edits: EditRequest[]) => EditRequest[]) {
  const repo = await makeRepo(FILES);
  const gitRepo = await discoverRepo(repo.root);
  const session = await openSession(gitRepo);
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  const loaded = await loadPythonProject(gitRepo, session, tree, undefined);
  const bytes = loaded.bytesOf.get(file)!;
  const entity = loaded.resolver.entityAt(loaded.project.files.get(file)!, offsetOf(bytes, lineStarts(bytes), line, col)!)!;
  const oldName = entity.kind === 'module' ? entity.module : entity.name;
  const edits = loaded.resolver.occurrences(entity).map((o) => ({ file: o.file, span: { start: o.span[0], end: o.span[1] }, old_text: oldName, new_text: newName }));
  const after = await renamedProject({
    project: loaded.project,
    bytesOf: loaded.bytesOf,
    edits: edit(edits),
    moves: [],
    python: async () => (await resolvePython(undefined, session.dir)).path,
    factsDir: session.paths.facts,
    workersDir: session.paths.workers,
  });
  const mentioning = new Set([...loaded.bytesOf].filter(([, b]) => Buffer.from(b).includes(oldName)).map(([f]) => f));
  const left = leftOvers({ before: loaded.resolver, after, targets: [entity], oldName, newName, mentioning, bytesOf: (f) => after.bytesOf.get(f) ?? loaded.bytesOf.get(f) });
  await repo.cleanup();
  return { left, edits };
}

test('the full set of edits leaves nothing behind', async (t) => {
  const { left, edits } = await check('pkg/core.py', 1, 5, 'publish', (e) => e);
  t.is(edits.length, 6, 'definition, re-export, __all__, pkg.emit, the import in app.py and the call');
  t.deepEqual(left, []);
});

test('an occurrence the plan missed is reported where it is, still under the old name', async (t) => {
  const { left } = await check('pkg/core.py', 1, 5, 'publish', (edits) => edits.filter((e) => !(e.file === 'app.py' && e.span!.start === FILES['app.py'].indexOf('emit("b")'))));
  t.deepEqual(left, [{ file: 'app.py', line: 5, col: 1, text: 'emit', reason: 'not_renamed' }]);
});

test('a from-import left pointing at a name that no longer exists is dangling', async (t) => {
  // Renaming in core and in app.py but not the re-export: `from pkg import emit` then names nothing.
  const { left } = await check('pkg/core.py', 1, 5, 'publish', (edits) => edits.filter((e) => e.file !== 'pkg/__init__.py'));
  t.true(left.some((l) => l.file === 'pkg/__init__.py' && l.reason === 'not_renamed'), JSON.stringify(left));
  t.true(left.some((l) => l.file === 'app.py' && l.line === 2), JSON.stringify(left));
});

test('a keyword argument whose parameter was renamed without it is reported', async (t) => {
  const { left } = await check('pkg/core.py', 1, 15, 'sync', (edits) => edits.filter((e) => e.file !== 'app.py'));
  t.deepEqual(left, [{ file: 'app.py', line: 4, col: 15, text: 'flush', reason: 'not_renamed' }]);
});
