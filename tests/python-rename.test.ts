// Python renames on the fixture projects through the real CLI, worker and git, compared with golden/python/<case>.
import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from './helpers/golden.js';
import { checkRenameCase, type RenameCase } from './helpers/rename-cases.js';

const manifest = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'fixtures', 'python', 'manifest.json'), 'utf8')) as { cases: RenameCase[] };

for (const c of manifest.cases) test(`python ${c.name}`, (t) => checkRenameCase(t, 'python', c, (stdout) => stdout.replace(/"[^"]*python3?"/g, '"<python>"')));
