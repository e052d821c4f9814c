// The worker's faster ast walks (tugworker/walk.py, returns.py) visit what the stdlib's do, in the same order: the
// facts built from them must not change. Checked on every Python file of the fixtures and of the worker itself.
import test from 'ava';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { resolvePython } from '../lib/python/interpreter.js';
import { PROJECT_ROOT } from './helpers/golden.js';

const CHECK = `
import ast, os, sys
sys.path.insert(0, sys.argv[1])
from tugworker.walk import FastVisitor
from tugworker import returns

def stdlib_returns(body):
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))

def recorder(base):
    class Recorder(base):
        def __init__(self):
            self.seen = []
        def visit_Name(self, node):
            self.seen.append(("name", node.id, node.lineno, node.col_offset))
            self.generic_visit(node)
        def visit_FunctionDef(self, node):
            self.seen.append(("def", node.name, [(r.lineno, r.col_offset) for r in returns._returns(node.body)]))
            self.generic_visit(node)
        def generic_visit(self, node):
            self.seen.append(type(node).__name__)
            super().generic_visit(node)
    return Recorder

files = checked = 0
for root in sys.argv[2:]:
    for dirpath, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            try:
                tree = ast.parse(open(os.path.join(dirpath, name), "rb").read())
            except (SyntaxError, ValueError):
                continue
            fast, slow = recorder(FastVisitor)(), recorder(ast.NodeVisitor)()
            fast.visit(tree)
            slow.visit(tree)
            assert fast.seen == slow.seen, os.path.join(dirpath, name)
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    assert list(returns._returns(node.body)) == list(stdlib_returns(node.body)), (name, node.name)
                    checked += 1
            files += 1
print(files, checked)
`;

test('FastVisitor visits as ast.NodeVisitor does, and a function\'s return statements come in the same order', async (t) => {
  const python = (await resolvePython(undefined, PROJECT_ROOT)).path;
  const worker = path.join(PROJECT_ROOT, 'python-worker');
  const { stdout } = await promisify(execFile)(python, ['-c', CHECK, worker, path.join(PROJECT_ROOT, 'fixtures'), worker], { maxBuffer: 1 << 24 });
  const [files, functions] = stdout.trim().split(' ').map(Number);
  t.true(files! > 50, stdout);
  t.true(functions! > 200, stdout);
});
