// The TypeScript compiler is loaded once per compiler file: a project whose node_modules/typescript is a link to tug's
// own copy (as the fixtures' are, and as a workspace sharing one install has) gets the module tug already loaded, not a
// second 9 MB compile, and still reports itself as the project's; another copy of the compiler is loaded on its own.
import test from 'ava';
import { realpathSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadTypeScript } from '../lib/typescript/load.js';

const TUG_TS = path.resolve('node_modules', 'typescript');

test('a project linked to tug\'s own compiler shares its module; a copied compiler is its own', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-ts-load-'));
  try {
    await symlink(TUG_TS, path.join(dir, 'linked'));
    // package.json and the main file are enough for require to load it.
    await cp(path.join(TUG_TS, 'package.json'), path.join(dir, 'copy', 'package.json'));
    await cp(path.join(TUG_TS, 'lib', 'typescript.js'), path.join(dir, 'copy', 'lib', 'typescript.js'));
    const own = loadTypeScript(null);
    const linked = loadTypeScript(path.join(dir, 'linked'));
    t.is(linked.ts, own.ts);
    t.is(linked.source, 'project');
    t.is(own.source, 'tug');
    t.is(linked.dir, realpathSync(TUG_TS));
    const copy = loadTypeScript(path.join(dir, 'copy'));
    t.not(copy.ts, own.ts);
    t.is(copy.version, own.version);
    t.is(copy.source, 'project');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
