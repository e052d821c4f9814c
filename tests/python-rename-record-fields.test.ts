// Renaming a field of a class whose __init__ is generated from its fields (dataclasses, attrs, NamedTuple, TypedDict)
// renames the keywords that name it: the constructor's, the subclass constructor's, `_replace(…)`'s and
// `dataclasses.replace(obj, …)`'s; a keyword tug cannot tie to the record is listed as unsure, never left silently
// (issue 28 §2: `Trivia(comment_ws=…)` was left behind when tomlkit's Trivia.comment_ws was renamed).
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const FILES = {
  'pkg/__init__.py': '',
  'pkg/items.py': "from __future__ import annotations\n\nimport dataclasses\nfrom dataclasses import dataclass\nfrom typing import NamedTuple, TypedDict\n\nimport attr\n\n\n@dataclass\nclass Trivia:\n    \"\"\"Trivia information (aka metadata).\"\"\"\n\n    indent: str = \"\"\n    comment_ws: str = \"\"\n    comment: str = \"\"\n    trail: str = \"\\n\"\n\n    def copy(self) -> Trivia:\n        return dataclasses.replace(self, comment_ws=self.comment_ws)\n\n\n@dataclass(frozen=True)\nclass KeyTrivia(Trivia):\n    sep: str = \"=\"\n\n\n@attr.s\nclass Whitespace:\n    value = attr.ib()\n    fixed = attr.ib(default=False)\n\n\nclass Position(NamedTuple):\n    line: int\n    column: int\n\n\nclass Options(TypedDict, total=False):\n    sort_keys: bool\n    indent: int\n\n\nclass Plain:\n    comment_ws: str\n\n    def __init__(self, comment_ws=\"\"):\n        self.comment_ws = comment_ws\n",
  'pkg/parser.py': "from pkg.items import KeyTrivia, Options, Plain, Position, Trivia, Whitespace\n\n\ndef parse_comment(text):\n    return Trivia(comment_ws=\"  \", comment=text)\n\n\ndef key_trivia():\n    return KeyTrivia(indent=\"\", comment_ws=\" \", sep=\" = \")\n\n\ndef moved(pos: Position):\n    return pos._replace(column=pos.column + 1)\n\n\ndef ws(text):\n    return Whitespace(value=text, fixed=True)\n\n\ndef opts():\n    return Options(sort_keys=True)\n\n\ndef unknown(t):\n    return t._replace(column=0)\n\n\ndef plain():\n    return Plain(comment_ws=\" \")\n",
};

const env = { TUG_NO_DAEMON: '1' };

async function rename(at: string, to: string) {
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ['run', 'rename-symbol', '--at', at, '--to', to, '--verify', 'syntax'], { env });
  const branch = run.json?.git?.branch;
  const show = async (file: string) => (branch ? repo.git('show', `${branch}:${file}`) : '');
  return { run, repo, show };
}

test('a dataclass field: the constructor, a subclass constructor and dataclasses.replace follow', async (t) => {
  const { run, repo, show } = await rename('pkg/items.py:15:5', 'comment_space');
  t.is(run.exitCode, 0, run.stdout);
  const parser = await show('pkg/parser.py');
  t.true(parser.includes('return Trivia(comment_space="  ", comment=text)'), parser);
  t.true(parser.includes('return KeyTrivia(indent="", comment_space=" ", sep=" = ")'), parser);
  t.true(parser.includes('return Plain(comment_ws=" ")'), 'Plain writes its own __init__: its keyword is its parameter');
  t.true((await show('pkg/items.py')).includes('return dataclasses.replace(self, comment_space=self.comment_space)'));
  t.deepEqual(run.json.unsure ?? [], []);
  await repo.cleanup();
});

test('the cursor on a constructor keyword renames the dataclass field', async (t) => {
  const { run, repo, show } = await rename('pkg/parser.py:5:19', 'comment_space');
  t.is(run.exitCode, 0, run.stdout);
  t.true((await show('pkg/items.py')).includes('    comment_space: str = ""'));
  await repo.cleanup();
});

test('NamedTuple, attrs and TypedDict fields: _replace, attr.ib() and the TypedDict call follow; an untyped _replace is unsure', async (t) => {
  const tuple = await rename('pkg/items.py:36:5', 'col');
  t.is(tuple.run.exitCode, 0, tuple.run.stdout);
  t.true((await tuple.show('pkg/parser.py')).includes('return pos._replace(col=pos.col + 1)'));
  t.deepEqual(
    tuple.run.json.unsure.map((u: any) => `${u.file}:${u.line} ${u.text} ${u.reason}`),
    ['pkg/parser.py:25 t._replace(column=…) untyped_receiver'],
  );
  await tuple.repo.cleanup();
  const attrs = await rename('pkg/items.py:30:5', 'text');
  t.is(attrs.run.exitCode, 0, attrs.run.stdout);
  t.true((await attrs.show('pkg/parser.py')).includes('return Whitespace(text=text, fixed=True)'));
  await attrs.repo.cleanup();
  const typed = await rename('pkg/items.py:40:5', 'sort');
  t.is(typed.run.exitCode, 0, typed.run.stdout);
  t.true((await typed.show('pkg/parser.py')).includes('return Options(sort=True)'));
  await typed.repo.cleanup();
});

test('PEP 681: a field of a class made by a @dataclass_transform decorator or base follows its constructor keywords', async (t) => {
  const repo = await makeRepo({
    'shapes/__init__.py': '',
    'shapes/base.py': [
      'from dataclasses import dataclass',
      'from typing import dataclass_transform',
      '',
      '',
      '@dataclass_transform()',
      'def model(cls):',
      '    return dataclass(cls)',
      '',
      '',
      '@dataclass_transform()',
      'class ModelBase:',
      '    def __init_subclass__(cls, **kwargs):',
      '        dataclass(cls)',
      '',
      '',
      '@model',
      'class Span:',
      '    start: int',
      '    end: int',
      '',
      '',
      'class Point(ModelBase):',
      '    x: int',
      '    y: int',
      '',
    ].join('\n'),
    'shapes/use.py': 'from shapes.base import Point, Span\n\nwhole = Span(start=0, end=10)\norigin = Point(x=0, y=0)\n',
  });
  const env = { TUG_NO_DAEMON: '1' };
  const span = await tug(repo.root, ['run', 'rename-symbol', '--at', 'shapes/base.py:18:5', '--to', 'begin', '--verify', 'syntax'], { env });
  t.is(span.exitCode, 0, span.stdout);
  t.true((await repo.git('show', `${span.json.git.branch}:shapes/use.py`)).includes('whole = Span(begin=0, end=10)'));
  const point = await tug(repo.root, ['run', 'rename-symbol', '--at', 'shapes/base.py:23:5', '--to', 'left', '--verify', 'syntax'], { env });
  t.is(point.exitCode, 0, point.stdout);
  t.true((await repo.git('show', `${point.json.git.branch}:shapes/use.py`)).includes('origin = Point(left=0, y=0)'));
  await repo.cleanup();
});

// attrs makes `_x = attr.ib()` the constructor keyword `x`: a rename of `_x` left `C(x=…)` alone, silently (issue 28).
test('an attrs private field: the constructor keyword without the underscore follows; a dataclass keeps the underscore', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/conn.py': 'from dataclasses import dataclass\n\nimport attr\n\n\n@attr.s\nclass Conn:\n    _host = attr.ib()\n    port = attr.ib(default=80)\n\n    def url(self):\n        return f"{self._host}:{self.port}"\n\n\n@dataclass\nclass Plain:\n    _host: str = ""\n',
    'pkg/use.py': 'from pkg.conn import Conn, Plain\n\nc = Conn(host="example.org", port=8080)\np = Plain(_host="x")\n',
  });
  const env = { TUG_NO_DAEMON: '1' };
  const run = await tug(repo.root, ['run', 'rename-symbol', '--at', 'pkg/conn.py:8:5', '--to', '_hostname', '--verify', 'syntax'], { env });
  t.is(run.exitCode, 0, run.stdout);
  const branch = run.json.git.branch;
  t.true((await repo.git('show', `${branch}:pkg/use.py`)).includes('c = Conn(hostname="example.org", port=8080)'));
  t.true((await repo.git('show', `${branch}:pkg/conn.py`)).includes('    _hostname = attr.ib()\n'));
  t.true((await repo.git('show', `${branch}:pkg/conn.py`)).includes('return f"{self._hostname}:{self.port}"'));
  const plain = await tug(repo.root, ['run', 'rename-symbol', '--at', 'pkg/conn.py:17:5', '--to', '_name', '--verify', 'syntax'], { env });
  t.is(plain.exitCode, 0, plain.stdout);
  t.true((await repo.git('show', `${plain.json.git.branch}:pkg/use.py`)).includes('p = Plain(_name="x")'));
  await repo.cleanup();
});
