// A warm TypeScript workspace brought up to a new snapshot reads the few files it changed from the working tree when they still are the snapshot's blobs (no cat-file process), from git otherwise, and a long-lived process keeps what it read.
import test from 'ava';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { keepInMemory } from '../lib/core/memory.js';
import { readBlobs } from '../lib/git/objects.js';
import { discoverRepo } from '../lib/git/repo.js';
import { openTsWorkspace } from '../lib/typescript/workspace.js';
import { tsFixture } from './helpers/typescript.js';

test.serial('a warm update reads a changed file from the working tree only when it still is the blob, and keeps it', async (t) => {
  keepInMemory();
  const repo = await tsFixture('shapes');
  const gitRepo = await discoverRepo(repo.root);
  const file = 'src/labels.ts';
  const textOf = async (tree: string) => {
    const ws = await openTsWorkspace(gitRepo, tree, file);
    return ws.fs.readFile(ws.fs.absolute(file));
  };
  const treeWith = async (text: string) => {
    await repo.write(file, text);
    await repo.git('add', '-A');
    return repo.git('write-tree');
  };
  const original = await repo.readText(file);
  await textOf(await repo.git('rev-parse', 'HEAD^{tree}'));

  // The file on disk is the new snapshot's blob: read from there. Its loose object is gone, so git could not have.
  const edited = `${original}export const more = 1;\n`;
  const treeA = await treeWith(edited);
  const blob = await repo.git('rev-parse', `${treeA}:${file}`);
  await rm(path.join(repo.root, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
  t.is(await textOf(treeA), edited);
  t.deepEqual(Buffer.from((await readBlobs(gitRepo, [blob])).get(blob)!).toString('utf8'), edited, 'kept for the next reader (the patch), which starts no git either');

  // The file on disk changed again after the snapshot: the snapshot's blob comes from git.
  const snapshotText = `${original}export const other = 2;\n`;
  const treeB = await treeWith(snapshotText);
  await repo.write(file, `${original}export const later = 3;\n`);
  t.is(await textOf(treeB), snapshotText);
  await repo.cleanup();
});
