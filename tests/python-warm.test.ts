// What a long-lived process (daemon, MCP server, library) keeps between calls answers exactly what a fresh analysis
// would: the last plans by tree and question, the doctest example projects, and HEAD's commit read from the ref files.
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { forgetRecent } from '../lib/core/memory.js';
import { discoverRepo, readHead } from '../lib/git/repo.js';
import { exampleProject } from '../lib/python/doctests.js';
import { withPythonProject } from '../lib/python/load-project.js';
import { planPythonRename } from '../lib/python/rename-plan.js';
import { shutdownWorkers } from '../lib/python/worker-pool.js';
import { openWorkspace } from '../lib/ops/workspace/workspace.js';
import { makeRepo } from './helpers/repo.js';

test.after.always(() => shutdownWorkers());

const FILES: Record<string, string> = {
  'lib/__init__.py': '',
  'lib/util.py': 'def make_temp(suffix=""):\n    """Make one.\n\n    >>> make_temp(".x")\n    \'tmp.x\'\n    """\n    return "tmp" + suffix\n',
  'lib/a.py': 'from lib.util import make_temp\n\nLABEL = "make_temp"\n\n\ndef go():\n    return make_temp()\n',
  'README.md': '# lib\n\n```python\nfrom lib.util import make_temp\nmake_temp()\n```\n',
};

const AT = { file: 'lib/util.py', line: 1, col: 5 };

test('an analysis asked again on the same tree answers the same; a new tree or other options answer anew', async (t) => {
  forgetRecent();
  const repo = await makeRepo(FILES);
  const ws = await openWorkspace({ workspace: repo.root }, { lock: false });
  try {
    const tree = await repo.git('rev-parse', 'HEAD^{tree}');
    const first = await planPythonRename(ws.repo, ws.session, tree, AT, 'new_temp', {});
    const pristine = JSON.stringify(first);
    const files = (plan: typeof first) => plan.references.map((r) => r.location.file).sort();
    t.deepEqual(files(first), ['README.md', 'README.md', 'lib/a.py', 'lib/a.py', 'lib/util.py', 'lib/util.py']);
    // A caller adding to the plan it got changes nothing for the next caller.
    first.references.push(first.references[0]!);
    first.edits.length = 0;
    const again = await planPythonRename(ws.repo, ws.session, tree, AT, 'new_temp', {});
    t.is(JSON.stringify({ ...again, filesParsed: first.filesParsed }), pristine);
    t.is(again.filesParsed, 0);

    // Another question on the same tree: the string is renamed only when asked.
    const strings = await planPythonRename(ws.repo, ws.session, tree, AT, 'new_temp', { renameStrings: true });
    t.is(strings.edits.length, again.edits.length + 1);
    t.true(strings.edits.some((e) => e.file === 'lib/a.py' && e.old_text === 'make_temp' && e.span!.start === FILES['lib/a.py']!.indexOf('"make_temp"') + 1));

    // A new tree (one more module using the function): its uses are found.
    await writeFile(path.join(repo.root, 'lib', 'b.py'), 'from lib.util import make_temp\n\nmake_temp()\n');
    await repo.git('add', '-A');
    await repo.git('commit', '-q', '-m', 'b');
    const next = await planPythonRename(ws.repo, ws.session, await repo.git('rev-parse', 'HEAD^{tree}'), AT, 'new_temp', {});
    t.is(next.references.filter((r) => r.location.file === 'lib/b.py').length, 2);
  } finally {
    await ws.close();
    await repo.cleanup();
  }
});

test('the doctest example project is built once per loaded project, tree and name', async (t) => {
  forgetRecent();
  const repo = await makeRepo(FILES);
  const ws = await openWorkspace({ workspace: repo.root }, { lock: false });
  try {
    const tree = await repo.git('rev-parse', 'HEAD^{tree}');
    const places = { python: async () => 'python3', factsDir: ws.session.paths.facts, workersDir: ws.session.paths.workers };
    await withPythonProject(ws.repo, ws.session, tree, undefined, { at: AT, newName: 'new_temp' }, async (loaded) => {
      const request = { repo: ws.repo, tree, loaded, oldName: 'make_temp', ...places };
      const one = exampleProject(request);
      t.is(exampleProject({ ...request }), one);
      t.not(exampleProject({ ...request, oldName: 'go' }), one);
      t.deepEqual([...(await one).docs.keys()].sort(), ['README.md#code', 'lib/util.py#doctest']);
    });
  } finally {
    await ws.close();
    await repo.cleanup();
  }
});

test('HEAD read again in one process follows every way it moves: commits, packed refs, update-ref, detaching', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const head = async () => readHead(await discoverRepo(repo.root));
  const state = async () => ({ oid: await repo.git('rev-parse', 'HEAD'), tree: await repo.git('rev-parse', 'HEAD^{tree}') });
  const check = async (what: string, ref: string | null) => {
    const { oid, tree } = await state();
    const seen = await head();
    t.deepEqual({ oid: seen.oid, tree: seen.tree, ref: seen.ref }, { oid, tree, ref }, what);
  };
  try {
    await check('first read', 'refs/heads/main');
    const first = await repo.git('rev-parse', 'HEAD');
    await check('read again', 'refs/heads/main');
    await writeFile(path.join(repo.root, 'a.py'), 'x = 2\n');
    await repo.git('commit', '-qam', 'two');
    await check('a new commit', 'refs/heads/main');
    await repo.git('pack-refs', '--all');
    await check('packed', 'refs/heads/main');
    await writeFile(path.join(repo.root, 'a.py'), 'x = 3\n');
    await repo.git('commit', '-qam', 'three');
    await check('a commit after packing', 'refs/heads/main');
    await repo.git('update-ref', 'refs/heads/main', first);
    await repo.git('reset', '-q', '--hard');
    await check('update-ref back', 'refs/heads/main');
    await repo.git('checkout', '-q', '--detach', 'HEAD@{1}');
    await check('detached', null);
  } finally {
    await repo.cleanup();
  }
});
