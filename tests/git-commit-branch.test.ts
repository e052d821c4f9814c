// commitOnNewBranch: a result's commit and its branch from one process started from tug, with the same commit, branch names and reflog as commitTree followed by createResultBranch.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import test from 'ava';
import { TugError } from '../lib/core/errors.js';
import { commitTree, type CommitSpec } from '../lib/git/objects.js';
import { readNotes } from '../lib/git/notes.js';
import { commitOnNewBranch, readRef } from '../lib/git/refs.js';
import { discoverRepo } from '../lib/git/repo.js';
import { makeRepo } from './helpers/repo.js';

async function setUp() {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  const r = await discoverRepo(repo.root);
  const head = await repo.git('rev-parse', 'HEAD');
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');
  // Quotes, a newline and a dollar in the message and the name: the shell must pass them on untouched.
  const spec: CommitSpec = { tree, parents: [head], message: "rename 'x' to \"y\"\n\n$HOME `pwd` \\n\n", time: 1700000123, author: { name: "Ann O'Brien", email: 'ann@example.com' } };
  return { repo, r, head, spec };
}

test('the commit is commitTree\'s and the branch points at it; the reflog is the one createResultBranch writes', async (t) => {
  const { repo, r, spec } = await setUp();
  try {
    const expected = await commitTree(r, spec);
    const made = await commitOnNewBranch(r, spec, 'tug/rename/x-to-y');
    t.deepEqual(made, { commit: expected, branch: 'tug/rename/x-to-y', named: false, noted: false });
    t.is(await readRef(r, 'refs/heads/tug/rename/x-to-y'), expected);
    t.is(await repo.git('log', '-1', '--format=%an <%ae> %at|%cn <%ce> %ct', expected), "Ann O'Brien <ann@example.com> 1700000123|Ann O'Brien <ann@example.com> 1700000123");
    // The branch's reflog is written by update-ref as before: its own message, the time it ran, not the commit's date.
    const log = (await readFile(path.join(repo.root, '.git', 'logs', 'refs', 'heads', 'tug', 'rename', 'x-to-y'), 'utf8')).trim();
    t.true(log.endsWith('\ttug: result'), log);
    t.false(log.includes('1700000123'), log);
  } finally {
    await repo.cleanup();
  }
});

test('a name taken by another commit gets the next free one; taken by the same commit, it is kept', async (t) => {
  const { repo, r, head, spec } = await setUp();
  try {
    await repo.git('branch', 'tug/taken', head);
    const made = await commitOnNewBranch(r, spec, 'tug/taken');
    t.is(made.branch, 'tug/taken-2');
    t.is(await readRef(r, 'refs/heads/tug/taken'), head, 'the branch that was there did not move');
    t.is(await readRef(r, 'refs/heads/tug/taken-2'), made.commit);
    t.deepEqual(await commitOnNewBranch(r, spec, 'tug/taken-2'), made);
    // The note goes only with a branch made by the same process: here the caller writes it.
    t.false((await commitOnNewBranch(r, spec, 'tug/taken', { note: '{"x":1}\n' })).noted);
    t.deepEqual(await readNotes(r, [made.commit]), new Map());
  } finally {
    await repo.cleanup();
  }
});

test('a commit git cannot make fails as commitTree does, and no branch is made', async (t) => {
  const { repo, r, spec } = await setUp();
  try {
    const broken = { ...spec, tree: '0123456789012345678901234567890123456789' };
    const error = await t.throwsAsync(commitOnNewBranch(r, broken, 'tug/broken'), { instanceOf: TugError });
    t.is(error?.code, 'InternalError');
    t.regex(error!.message, /commit-tree/);
    t.is(await readRef(r, 'refs/heads/tug/broken'), null);
  } finally {
    await repo.cleanup();
  }
});

test('the note is attached to the commit by the same process, as writeNote attaches it; an older note is replaced', async (t) => {
  const { repo, r, spec } = await setUp();
  try {
    const text = '{"format":"tug-record/1","quote":"it\'s $HOME"}\n';
    const made = await commitOnNewBranch(r, spec, 'tug/noted', { note: text });
    t.true(made.noted);
    t.deepEqual(await readNotes(r, [made.commit]), new Map([[made.commit, text]]));
    t.is(await repo.git('log', '-1', '--format=%an <%ae>', 'refs/notes/tug'), 'tug <tug@localhost>');
    await repo.git('branch', '-D', 'tug/noted');
    const again = await commitOnNewBranch(r, spec, 'tug/noted', { note: 'second\n' });
    t.true(again.noted);
    t.deepEqual(await readNotes(r, [made.commit]), new Map([[made.commit, 'second\n']]));
  } finally {
    await repo.cleanup();
  }
});

test('a ref named after the commit is pointed at it by the same process, whatever it pointed at before, as pointRef does', async (t) => {
  const { repo, r, spec } = await setUp();
  try {
    const named = { prefix: 'refs/tug/undo/undo_', chars: 16, reason: 'tug: undo point' };
    const made = await commitOnNewBranch(r, spec, 'tug/named', { named, note: 'n\n' });
    t.like(made, { named: true, noted: true });
    t.is(await readRef(r, `refs/tug/undo/undo_${made.commit.slice(0, 16)}`), made.commit);
    // The same commit again under another name, its named ref moved elsewhere meanwhile and packed: pointed back.
    await repo.git('update-ref', `refs/tug/undo/undo_${made.commit.slice(0, 16)}`, spec.parents[0]!);
    await repo.git('pack-refs', '--all');
    const again = await commitOnNewBranch(r, spec, 'tug/named-again', { named, note: 'n2\n' });
    t.like(again, { commit: made.commit, branch: 'tug/named-again', named: true, noted: true });
    t.is(await readRef(r, `refs/tug/undo/undo_${made.commit.slice(0, 16)}`), made.commit);
    t.deepEqual(await readNotes(r, [made.commit]), new Map([[made.commit, 'n2\n']]));
  } finally {
    await repo.cleanup();
  }
});
