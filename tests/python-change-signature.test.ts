// Python change-signature on a src-layout package through the real CLI, worker and git: each ok case runs the
// package's own tests in the sandbox; refusals name their code.
import test from 'ava';
import { checkOpCase, opManifest } from './helpers/op-cases.js';

const manifest = await opManifest('change_signature.json');

for (const c of manifest.cases) test(`python ${c.name}`, (t) => checkOpCase(t, manifest.workspace, c, 'python-change-signature', [], { warnings: true }));

