// Hostile destinations for move-symbol (issue 35): a module that would shadow the standard library or an installed
// package, a name no file system accepts, a keyword no import can spell. Each is a clean InvalidArgument and leaves no
// branch; none is an InternalError, and none writes `from pkg.None import …`.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const FILES = {
  'pkg/__init__.py': '',
  'pkg/core.py': 'import json\n\n\ndef encode(value):\n    return json.dumps(value)\n\n\ndef decode(text):\n    return json.loads(text)\n',
  'app.py': 'from pkg.core import decode, encode\n\nprint(decode(encode([1])))\n',
};
const AT = 'pkg/core.py:4:5';

async function refused(t: import('ava').ExecutionContext, repo: TestRepo, destination: string, reason: RegExp, extra: string[] = []): Promise<void> {
  const branches = await repo.git('branch', '--list');
  const run = await tug(repo.root, ['move', '--at', AT, '--destination', destination, '--verify', 'none', '--json', ...extra]);
  t.is(run.exitCode, 2, `${destination}: ${run.stdout}`);
  t.is(run.json?.error?.code, 'InvalidArgument', destination);
  t.regex(run.json.error.message, reason, destination);
  t.is(await repo.git('branch', '--list'), branches, `${destination}: no branch`);
}

test('a new top-level module named like the standard library is refused: json, typing (dotted or as a path)', async (t) => {
  const repo = await makeRepo(FILES);
  try {
    for (const destination of ['json', 'typing', 'json.py']) await refused(t, repo, destination, /would shadow the standard library's/);
    // Inside a package the name hides nothing: `pkg.json` is only ever imported as pkg.json.
    const inside = await tug(repo.root, ['move', '--at', AT, '--destination', 'pkg.json', '--verify', 'syntax', '--json']);
    t.is(inside.exitCode, 0, inside.stdout);
  } finally {
    await repo.cleanup();
  }
});

test("a new top-level module named like an installed package is refused; the repository's own package is not", async (t) => {
  // An interpreter whose site-packages holds `fancylib` (a venv without pip: nothing is fetched).
  const venv = await mkdtemp(path.join(os.tmpdir(), 'tug-venv-'));
  const repo = await makeRepo({ ...FILES, 'fancylib/__init__.py': '' });
  try {
    await execa('python3', ['-m', 'venv', '--without-pip', venv]);
    const { stdout: site } = await execa(path.join(venv, 'bin', 'python'), ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])']);
    for (const name of ['fancylib', 'othertool']) {
      await mkdir(path.join(site, name), { recursive: true });
      await writeFile(path.join(site, name, '__init__.py'), '');
    }
    const python = ['--python', path.join(venv, 'bin', 'python')];
    await refused(t, repo, 'othertool', /would shadow the installed package othertool/, python);
    // fancylib is the repository's own package (installed from it, as `pip install -e .` does): moving into it is fine.
    const own = await tug(repo.root, ['move', '--at', AT, '--destination', 'fancylib.codec', '--verify', 'none', '--json', ...python]);
    t.is(own.exitCode, 0, own.stdout);
  } finally {
    await repo.cleanup();
    await rm(venv, { recursive: true, force: true });
  }
});

test('a module name longer than a file name may be is InvalidArgument, not InternalError (ENAMETOOLONG)', async (t) => {
  const repo = await makeRepo(FILES);
  try {
    const long = 'm'.repeat(300);
    await refused(t, repo, `pkg.${long}`, /file systems allow 255/);
    await refused(t, repo, `pkg/${long}.py`, /file systems allow 255/);
    await refused(t, repo, `${'d'.repeat(260)}.mod`, /file systems allow 255/);
  } finally {
    await repo.cleanup();
  }
});

test('keyword module names are refused: pkg.None, pkg.class, pkg/import.py', async (t) => {
  const repo = await makeRepo(FILES);
  try {
    for (const destination of ['pkg.None', 'pkg.class', 'pkg/import.py', 'True']) await refused(t, repo, destination, /is a Python keyword/);
    // Soft keywords are names: `match` and `type` modules import fine.
    const soft = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', AT, '--destination', 'pkg.match', '--json']);
    t.is(soft.exitCode, 0, soft.stdout);
  } finally {
    await repo.cleanup();
  }
});
