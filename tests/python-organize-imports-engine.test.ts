// The worker's organize-imports engine against ruff's own rules (the WebAssembly build tug also runs): on tricky
// snippets and on real code (the Python standard library of this machine), every file the engine answers must come
// out byte for byte as ruff leaves it; the ones it cannot prove it must say so. Also its list of standard modules.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { organizeImports } from '../lib/python/organize-imports.js';
import { loadRuff } from '../lib/python/ruff-wasm.js';
import { resolvePython } from '../lib/python/interpreter.js';
import { PythonWorker, WORKER_SCRIPT } from '../lib/python/worker.js';

const python = (await resolvePython()).path;

interface Answer {
  results: Array<{ path: string; content?: string; unsupported?: string }>;
}

async function engine(files: Array<{ path: string; content: string }>, isort: Record<string, unknown> = {}, firstParty: string[] = []): Promise<Answer['results']> {
  const worker = await PythonWorker.start({ python, script: WORKER_SCRIPT });
  try {
    const request = { files: files.map((f) => ({ ...f, package_init: f.path.endsWith('__init__.py') })), first_party: firstParty, isort, line_length: 88 };
    return (await worker.request<Answer>('organize_imports', request)).results;
  } finally {
    await worker.shutdown();
  }
}

async function ruff(file: { path: string; content: string }, isort: Record<string, unknown> = {}, firstParty: string[] = []): Promise<string> {
  const options = { firstParty, isort, packageInit: file.path.endsWith('__init__.py') };
  return Buffer.from(await organizeImports(file.path, Buffer.from(file.content), options)).toString('utf8');
}

/** Snippets the engine must answer (and answer as ruff does); each exercises one of ruff's rules. */
const ANSWERED: Record<string, string> = {
  'sections, merging, an unused import and a magic trailing comma': 'import sys\nimport os\nfrom a import (\n    b,\n    c,\n)\nprint(b)\n',
  'comments above, inline, inside and after a statement': '# header\nimport os  # inline\n# above json\nimport json\nfrom x import (  # stmt\n    b,  # b comment\n    a,\n)  # trailing\nprint(os, json, a, b)\n',
  'noqa keeps an unused import, isort: skip keeps a line where it is': '"""Doc."""\nimport os, json\nimport logging  # noqa: F401\nimport warnings  # isort: skip\nimport itertools\nprint(os, json)\n',
  'an import guarded by except ImportError is kept, the fallback in the handler is the binding read': 'try:\n    import ujson as json\nexcept ImportError:\n    import json\nprint(json)\n',
  'imports inside functions, a parameter shadowing a module import': 'import os\n\n\ndef f():\n    import re\n    import json\n    return json.dumps(1)\n\n\ndef g(os):\n    return os\n',
  'string annotations read names; an unused TYPE_CHECKING import goes': 'from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg.other import Unused\n    from pkg.backend import Backend\n\n\ndef f(b: "Backend") -> None:\n    pass\n',
  'the only statement of a block becomes pass': 'import sys\n\nif sys.version_info >= (3, 8):\n    import typing\n',
  'two unused imports that are a block\'s whole body: one goes, the other becomes pass': 'import sys\n\nif sys.version_info > (3,):\n    import json\n    import re\n',
  'a statement too long for the line wraps': 'from aaaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb import ccccccccccccccccccccc, dddddddddddddddddddddddd, eeeeeeeee\nfrom collections import (OrderedDict, defaultdict,)\nprint(OrderedDict, defaultdict, ccccccccccccccccccccc, dddddddddddddddddddddddd, eeeeeeeee)\n',
  'future first, relative imports furthest first, a star import': 'from os.path import *\nfrom .sibling import thing\nfrom . import here\nfrom .. import up\nfrom __future__ import annotations\nimport os\nprint(up, here, thing, os)\n',
  '__all__ counts as a use': 'from a import c, b\n\n__all__ = ["b"]\n',
  'an import shadowed later is left alone': 'import os\n\n\ndef os():\n    pass\n',
  'a comment and a blank line before a class: one blank line': 'import os\n\n# a comment\n\nclass A:\n    x = os\n',
  'a function defined before the import reads it once the module is done': 'def f():\n    return json.dumps({})\n\n\nimport json\n',
  'natural order, constants, classes and functions of one module': 'from m import b10, b9, Zeta, ALPHA, alpha, Beta\nprint(b10, b9, Zeta, ALPHA, alpha, Beta)\n',
  'combine-as-imports and a known first party': 'from pkg import a as x, b\nimport pkg.sub\nimport requests\nprint(x, b, pkg, requests)\n',
};

/** Snippets whose result needs more of ruff than the engine reproduces: it may answer, or say why not. */
const EITHER: Record<string, string> = {
  'a name read before its import': 'print(os)\nimport os\n',
  'del of an imported name': 'import os\ndel os\n',
  'global of an imported name': 'import os\n\n\ndef f():\n    global os\n    os = 1\n',
  'an unused submodule import next to an alias of its package': 'import pyarrow as pa\nimport pyarrow.csv\nprint(pa.csv)\n',
  '__all__ built in a block': 'import math\n\nif True:\n    __all__ = ["math"]\n',
  'a string in a typing call': 'from typing import TypeVar\nfrom .types import Dataclass\nT = TypeVar("T", bound="Dataclass")\n',
  'a noqa on a wrapped import': 'from a import (  # noqa\n    b,\n)\n',
  'CRLF line endings': 'import sys\r\nimport os\r\nprint(os)\r\n',
};

test('on snippets that exercise ruff\'s rules, the engine answers and its answer is ruff\'s', async (t) => {
  const files = Object.entries(ANSWERED).map(([name, content]) => ({ path: `${name}.py`, content }));
  const settings = (name: string) => (name.startsWith('combine-as') ? { isort: { 'combine-as-imports': true }, firstParty: ['pkg'] } : { isort: {}, firstParty: [] });
  for (const file of files) {
    const { isort, firstParty } = settings(file.path);
    const [answer] = await engine([file], isort, firstParty);
    t.is(answer!.unsupported, undefined, `${file.path} is answered`);
    t.is(answer!.content, await ruff(file, isort, firstParty), file.path);
    const [again] = await engine([{ path: file.path, content: answer!.content! }], isort, firstParty);
    t.is(again!.content, answer!.content, `${file.path}: a second run changes nothing`);
  }
});

test('where the engine cannot prove ruff\'s result it says why, and where it answers it is right', async (t) => {
  const files = Object.entries(EITHER).map(([name, content]) => ({ path: `${name}.py`, content }));
  const answers = await engine(files);
  let unsupported = 0;
  for (const [i, answer] of answers.entries()) {
    if (answer.unsupported !== undefined) {
      unsupported++;
      t.regex(answer.unsupported, /\w/, `${files[i]!.path} says why`);
    } else t.is(answer.content, await ruff(files[i]!), files[i]!.path);
  }
  t.true(unsupported >= files.length - 1, `${unsupported} of ${files.length} unsupported`);
});

/** The standard library's own modules, outside its tests, in path order. */
function stdlibFiles(limit: number): string[] {
  const root = execFileSync(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8' }).trim();
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && !/^(test|tests|idle_test|site-packages|dist-packages|__pycache__)$/.test(entry.name)) walk(full);
      else if (entry.isFile() && entry.name.endsWith('.py') && statSync(full).size < 300_000) found.push(full);
    }
  };
  walk(root);
  return found.slice(0, limit);
}

test('on the standard library of this machine every file the engine answers is byte for byte ruff\'s', async (t) => {
  const files = stdlibFiles(400).map((file) => ({ path: file, content: readFileSync(file, 'utf8') }));
  t.true(files.length > 100, `found ${files.length} files`);
  const answers = await engine(files);
  let answered = 0;
  const differ: string[] = [];
  for (const [i, answer] of answers.entries()) {
    if (answer.content === undefined) continue;
    answered++;
    if (answer.content !== (await ruff(files[i]!))) differ.push(files[i]!.path);
  }
  t.deepEqual(differ, [], 'files where the engine and ruff disagree');
  t.true(answered >= files.length * 0.8, `the engine answered ${answered} of ${files.length}`);
  t.log(`answered ${answered} of ${files.length} files`);
});

test('the engine\'s standard modules are the ones ruff sorts as the standard library', async (t) => {
  const listed = JSON.parse(execFileSync(python, ['-c', 'import json, sys; sys.path.insert(0, sys.argv[1]); from tugworker.stdlib_names import STDLIB; print(json.dumps([sorted(STDLIB), sorted(sys.stdlib_module_names)]))', path.dirname(WORKER_SCRIPT)], { encoding: 'utf8' })) as [string[], string[]];
  const { Workspace, PositionEncoding } = await loadRuff();
  const workspace = new Workspace({ lint: { select: ['I001'] } }, PositionEncoding.Utf8) as unknown as { check(text: string): Array<{ code: string; fix: { edits: Array<{ content: string }> } | null }> };
  const candidates = [...new Set([...listed[0], ...listed[1]])].sort();
  // A standard module sorts into a section of its own above a third-party one that sorts first alphabetically.
  const standard = candidates.filter((name) => {
    const text = `import ${name}\nimport aaaaaaaa\n`;
    const fix = workspace.check(text).find((d) => d.code === 'I001')?.fix;
    return (fix ? fix.edits[0]!.content : text).includes('\n\n');
  });
  t.deepEqual(listed[0], standard);
});
