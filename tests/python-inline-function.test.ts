// Python inline of a function on a src-layout package through the real CLI, worker and git: each ok case runs the
// package's own tests and doctests in the sandbox; refusals name their code. Goldens in golden/python-inline-function/.
import test from 'ava';
import { checkOpCase, opManifest } from './helpers/op-cases.js';

const manifest = await opManifest('inline_function.json');

for (const c of manifest.cases) test(`python ${c.name}`, (t) => checkOpCase(t, manifest.workspace, c, 'python-inline-function', ['inline'], { warnings: true }));
