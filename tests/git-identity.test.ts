// The result commits' author: read with one `git config`, and kept by a long-lived tug only while every config file git reads says what it said (a change to the repository's, the global, a new or an included file is seen at once).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { keepInMemory } from '../lib/core/memory.js';
import { userIdentity } from '../lib/git/objects.js';
import { discoverRepo } from '../lib/git/repo.js';
import { gitCalls } from './helpers/git-calls.js';
import { makeRepo } from './helpers/repo.js';

/** The identity, and how many `git config` processes reading it started. */
async function read(root: string) {
  const r = await discoverRepo(root);
  const { value, calls } = await gitCalls(() => userIdentity(r));
  return { identity: value, configs: calls.filter((c) => c.includes('config')).length };
}

test.serial('a one-shot process reads the identity each time', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    const first = await read(repo.root);
    t.deepEqual(first.identity, { name: 'Test Author', email: 'author@example.com' });
    t.is(first.configs, 1);
    t.is((await read(repo.root)).configs, 1);
  } finally {
    await repo.cleanup();
  }
});

test.serial('a long-lived process keeps the identity while the config files say the same: the repository\'s, the global one, one created', async (t) => {
  keepInMemory();
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  const home = await mkdtemp(path.join(os.tmpdir(), 'tug-identity-home-'));
  const global = path.join(home, '.gitconfig');
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL };
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  delete process.env.GIT_CONFIG_GLOBAL;
  try {
    await writeFile(global, '[user]\n\tname = Global One\n\temail = global@example.com\n');
    await repo.git('config', '--unset', 'user.name');
    await repo.git('config', '--unset', 'user.email');
    t.deepEqual(await read(repo.root), { identity: { name: 'Global One', email: 'global@example.com' }, configs: 1 });
    t.deepEqual(await read(repo.root), { identity: { name: 'Global One', email: 'global@example.com' }, configs: 0 }, 'kept');

    // The global file rewritten in place, the same size (within the same clock tick, its time may not move): seen.
    await writeFile(global, '[user]\n\tname = Global Two\n\temail = global@example.com\n');
    t.deepEqual(await read(repo.root), { identity: { name: 'Global Two', email: 'global@example.com' }, configs: 1 });
    t.is((await read(repo.root)).configs, 0);

    // The repository's own config: a new value is seen; the same text written again (`git branch -d` rewrites the
    // file to drop a branch's section it may not have) keeps the identity.
    const local = path.join(repo.root, '.git', 'config');
    await writeFile(local, await readFile(local));
    t.is((await read(repo.root)).configs, 0);
    await repo.git('config', 'user.name', 'Local Name');
    t.deepEqual(await read(repo.root), { identity: { name: 'Local Name', email: 'global@example.com' }, configs: 1 });
    await repo.git('config', '--unset', 'user.name');
    t.deepEqual(await read(repo.root), { identity: { name: 'Global Two', email: 'global@example.com' }, configs: 1 });
    t.is((await read(repo.root)).configs, 0);

    // A config file that did not exist when the identity was kept (the XDG one, read before ~/.gitconfig): seen.
    await mkdir(path.join(home, '.config', 'git'), { recursive: true });
    await writeFile(path.join(home, '.config', 'git', 'config'), '[user]\n\tname = Xdg Name\n\temail = xdg@example.com\n');
    t.deepEqual(await read(repo.root), { identity: { name: 'Global Two', email: 'global@example.com' }, configs: 1 }, '~/.gitconfig, read after it, still wins');
    await writeFile(global, '[user]\n\temail = global@example.com\n');
    t.deepEqual(await read(repo.root), { identity: { name: 'Xdg Name', email: 'global@example.com' }, configs: 1 });

    // Another environment (variables adding config) is another entry.
    Object.assign(process.env, { GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'From Env', GIT_CONFIG_KEY_1: 'user.email', GIT_CONFIG_VALUE_1: 'env@example.com' });
    t.deepEqual(await read(repo.root), { identity: { name: 'From Env', email: 'env@example.com' }, configs: 1 });
  } finally {
    for (const name of ['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0', 'GIT_CONFIG_KEY_1', 'GIT_CONFIG_VALUE_1']) delete process.env[name];
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await rm(home, { recursive: true, force: true });
    await repo.cleanup();
  }
});

test.serial('a config with includes is read each time: an included file or condition may change the answer', async (t) => {
  keepInMemory();
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    const included = path.join(repo.root, '.git', 'identity.inc');
    await writeFile(included, '[user]\n\tname = Included One\n');
    await repo.git('config', 'include.path', included);
    t.deepEqual(await read(repo.root), { identity: { name: 'Included One', email: 'author@example.com' }, configs: 1 });
    t.is((await read(repo.root)).configs, 1);
    await writeFile(included, '[user]\n\tname = Included Two\n');
    t.deepEqual((await read(repo.root)).identity, { name: 'Included Two', email: 'author@example.com' });
  } finally {
    await repo.cleanup();
  }
});
