// A Python name that native code looks up by module and name (simplejson's `_speedups` extension imports
// `simplejson.raw_json` and reads `RawJSON`): moving it broke the extension at import, and only the project's tests
// caught it (the sweep). tug now refuses the move unless the old module keeps the name (keep_reexport), whether the
// checked-in file is the extension's C source or the compiled extension itself. Real gcc, Python, worker and git.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { missing } from './helpers/toolchains.js';

const speedups = `#include <Python.h>

/* Wraps a value as simplejson does: the class is looked up in pkg.raw_json by name. */
static PyObject *wrap(PyObject *self, PyObject *arg) {
    PyObject *module = PyImport_ImportModule("pkg.raw_json");
    if (module == NULL) return NULL;
    PyObject *cls = PyObject_GetAttrString(module, "RawJSON");
    Py_DECREF(module);
    if (cls == NULL) return NULL;
    PyObject *out = PyObject_CallFunctionObjArgs(cls, arg, NULL);
    Py_DECREF(cls);
    return out;
}

static PyMethodDef methods[] = {{"wrap", wrap, METH_O, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, methods};
PyMODINIT_FUNC PyInit__speedups(void) { return PyModule_Create(&module); }
`;
const files = {
  'pkg/__init__.py': 'from .raw_json import RawJSON\n',
  'pkg/raw_json.py': '"""Implementation of RawJSON"""\n\n\nclass RawJSON(object):\n    def __init__(self, encoded_json):\n        self.encoded_json = encoded_json\n',
  'pkg/encoder.py': 'from .raw_json import RawJSON\n\n\ndef encode(value):\n    if isinstance(value, RawJSON):\n        return value.encoded_json\n    return repr(value)\n',
  'tests/__init__.py': '',
};
const nativeTest = 'import unittest\nfrom pkg import _speedups\nfrom pkg.encoder import encode\n\n\nclass TestNative(unittest.TestCase):\n    def test_wrap(self):\n        self.assertEqual(encode(_speedups.wrap("[1]")), "[1]")\n';
const testCommand = JSON.stringify(['{python}', '-m', 'unittest', '-q']);
const move = (extra: string[]) => ['run', 'move-symbol', '--at', 'pkg/raw_json.py:4:7', '--destination', 'pkg/raw.py', '--verify', 'tests', '--test-command', testCommand, ...extra, '--json'];

test('the extension\'s C source names the module and the class: the move is refused, naming the file', async (t) => {
  const repo = await makeRepo({ ...files, 'pkg/_speedups.c': speedups, 'tests/test_encoder.py': 'import unittest\nfrom pkg.encoder import encode\n\n\nclass TestEncoder(unittest.TestCase):\n    def test_plain(self):\n        self.assertEqual(encode(1), "1")\n' });
  const run = await tug(repo.root, move([]));
  t.is(run.exitCode, 4, run.stdout);
  t.like(run.json.error, { code: 'UnsafeRefactor', details: { reason: 'named by native code', files: ['pkg/_speedups.c'], module: 'pkg.raw_json', name: 'RawJSON' } });
  t.regex(run.json.error.message, /set keep_reexport \(CLI --keep-reexport\)/);
  t.is(await repo.git('branch', '--list', 'tug/*'), '');
  await repo.cleanup();
});

test('a compiled extension checked in names them too: refused, and with keep_reexport the moved class still reaches it and the tests pass', async (t) => {
  const python = process.env['TUG_TEST_PYTHON'] ?? 'python3';
  const paths = await execa(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["include"]); print(sysconfig.get_config_var("EXT_SUFFIX"))'], { reject: false });
  const [include, suffix] = paths.stdout.trim().split('\n');
  const gcc = await execa('gcc', ['--version'], { reject: false });
  if (paths.exitCode !== 0 || gcc.exitCode !== 0 || !include || !suffix) return missing(t, 'gcc and the Python headers build the test extension');
  const build = await mkdtemp(path.join(os.tmpdir(), 'tug-native-'));
  await writeFile(path.join(build, 'speedups.c'), speedups);
  const so = path.join(build, `_speedups${suffix}`);
  const compiled = await execa('gcc', ['-shared', '-fPIC', `-I${include}`, '-o', so, path.join(build, 'speedups.c')], { reject: false });
  if (compiled.exitCode !== 0) return missing(t, `gcc could not build the test extension: ${compiled.stderr}`);
  const repo = await makeRepo({ ...files, [`pkg/_speedups${suffix}`]: await readFile(so), 'tests/test_native.py': nativeTest });
  await rm(build, { recursive: true, force: true });
  const refused = await tug(repo.root, move([]));
  t.is(refused.exitCode, 4, refused.stdout);
  t.is(refused.json.error?.details?.reason, 'named by native code');
  const kept = await tug(repo.root, move(['--keep-reexport']));
  t.is(kept.exitCode, 0, kept.stdout);
  t.is(kept.json.verification.status, 'passed');
  t.regex(await repo.git('show', `${kept.json.git.branch}:pkg/raw_json.py`), /from pkg\.raw import RawJSON|from \.raw import RawJSON/);
  await repo.cleanup();
});

test('renaming the class native code reads by name is refused too; keep_alias keeps the old name for it', async (t) => {
  const repo = await makeRepo({ ...files, 'pkg/_speedups.c': speedups });
  const refused = await tug(repo.root, ['run', 'rename-symbol', '--at', 'pkg/raw_json.py:4:7', '--to', 'RawDocument', '--verify', 'syntax', '--json']);
  t.is(refused.exitCode, 4, refused.stdout);
  t.like(refused.json.error, { code: 'UnsafeRefactor', details: { reason: 'named by native code', files: ['pkg/_speedups.c'] } });
  t.regex(refused.json.error.message, /set keep_alias \(CLI --keep-alias\)/);
  const kept = await tug(repo.root, ['run', 'rename-symbol', '--at', 'pkg/raw_json.py:4:7', '--to', 'RawDocument', '--keep-alias', '--verify', 'syntax', '--json']);
  t.is(kept.exitCode, 0, kept.stdout);
  t.regex(await repo.git('show', `${kept.json.git.branch}:pkg/raw_json.py`), /^RawJSON = RawDocument/m);
  // A name no native file mentions renames as before.
  const other = await tug(repo.root, ['run', 'rename-symbol', '--at', 'pkg/encoder.py:4:5', '--to', 'encode_value', '--verify', 'syntax', '--json']);
  t.is(other.exitCode, 0, other.stdout);
  await repo.cleanup();
});
