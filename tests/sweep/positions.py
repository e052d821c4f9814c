# Lists the positions where each Python refactor could apply in a project, for tests/sweep/run.mjs to sample from.
# It reads the files with Python's own ast, so the sample is drawn from what the language sees, not from tug's view.
# Usage: python3 positions.py ROOT FILE... ; prints one JSON object per line: {"op", "file", ...position fields}.
import ast
import json
import sys

root, files = sys.argv[1], sys.argv[2:]


def emit(**kw):
    print(json.dumps(kw, sort_keys=True))


def one_line(node):
    return node.lineno == node.end_lineno


def params_of(fn):
    a = fn.args
    return a


def signature_cases(file, fn, is_method):
    a = fn.args
    regular = list(a.args)
    if is_method and regular and not any(isinstance(d, ast.Name) and d.id == 'staticmethod' for d in fn.decorator_list):
        regular = regular[1:]
    names = [p.arg for p in regular]
    n_defaults = len(a.defaults)
    first_default = len(a.args) - n_defaults  # index into a.args
    offset = len(a.args) - len(regular)
    has_default = [i + offset >= first_default for i in range(len(regular))]
    entries = []
    if a.posonlyargs:
        return  # keep the sweep to plain signatures; '/' handling is its own case
    entries = [{'name': n} for n in names]
    tail = []
    if a.vararg:
        tail.append({'name': '*' + a.vararg.arg})
    elif a.kwonlyargs:
        tail.append({'name': '*'})
    tail += [{'name': k.arg} for k in a.kwonlyargs]
    if a.kwarg:
        tail.append({'name': '**' + a.kwarg.arg})
    at = dict(file=file, line=fn.lineno, col=fn.col_offset + 1 + (6 if isinstance(fn, ast.AsyncFunctionDef) else 4) - 0, name=fn.name)
    # `def ` is 4 chars, `async def ` 10: the name starts after it (col is 1-based).
    at['col'] = fn.col_offset + 1 + (10 if isinstance(fn, ast.AsyncFunctionDef) else 4)
    if len(names) >= 2 and has_default[0] == has_default[1]:
        swapped = [entries[1], entries[0]] + entries[2:]
        emit(op='change-signature', kind='swap', params=swapped + tail, method=is_method, **at)
    # a new keyword parameter with a default, before any *args/kw-only part
    added = entries + ([{'name': 'sweep_extra', 'default': 'None'}] if not a.vararg and not a.kwonlyargs and not a.kwarg else [])
    if len(added) > len(entries):
        emit(op='change-signature', kind='add', params=added + tail, method=is_method, **at)
    if names and not has_default[-1] or (names and all(has_default)):
        last = names[-1]
        body_names = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
        if last not in body_names:  # an unused parameter: removing it keeps the body valid
            emit(op='change-signature', kind='remove', params=entries[:-1] + tail, method=is_method, **at)


class Walk(ast.NodeVisitor):
    def __init__(self, file, src_lines):
        self.file = file
        self.lines = src_lines
        self.stack = []  # enclosing defs/classes

    def in_function(self):
        return any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) for s in self.stack)

    def name_col(self, node, keyword):
        line = self.lines[node.lineno - 1]
        i = line.find(keyword + ' ', node.col_offset)
        if i < 0:
            return None
        j = line.find(node.name, i + len(keyword))
        return j + 1 if j >= 0 else None

    def visit_FunctionDef(self, node):
        col = self.name_col(node, 'def')
        top = not self.stack
        method = bool(self.stack) and isinstance(self.stack[-1], ast.ClassDef)
        if col:
            emit(op='rename-symbol', file=self.file, line=node.lineno, col=col, name=node.name, kind='method' if method else 'function')
            if top:
                emit(op='move-symbol', file=self.file, line=node.lineno, col=col, name=node.name, kind='function')
                emit(op='inline', file=self.file, line=node.lineno, col=col, name=node.name, kind='function')
            if top or method:
                signature_cases(self.file, node, method)
        a = node.args
        for p in a.posonlyargs + a.args + a.kwonlyargs:
            if p.arg in ('self', 'cls'):
                continue
            emit(op='rename-symbol', file=self.file, line=p.lineno, col=p.col_offset + 1, name=p.arg, kind='parameter')
        self.stack.append(node)
        self.blocks(node)
        self.generic_visit(node)
        self.stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        col = self.name_col(node, 'class')
        if col:
            emit(op='rename-symbol', file=self.file, line=node.lineno, col=col, name=node.name, kind='class')
            if not self.stack:
                emit(op='move-symbol', file=self.file, line=node.lineno, col=col, name=node.name, kind='class')
        self.stack.append(node)
        self.generic_visit(node)
        self.stack.pop()

    def visit_Assign(self, node):
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            t = node.targets[0]
            if self.in_function():
                emit(op='rename-symbol', file=self.file, line=t.lineno, col=t.col_offset + 1, name=t.id, kind='local')
                emit(op='inline', file=self.file, line=t.lineno, col=t.col_offset + 1, name=t.id, kind='local')
            elif not self.stack:
                emit(op='rename-symbol', file=self.file, line=t.lineno, col=t.col_offset + 1, name=t.id, kind='global')
                emit(op='move-symbol', file=self.file, line=t.lineno, col=t.col_offset + 1, name=t.id, kind='constant')
        self.generic_visit(node)

    def blocks(self, fn):
        # Runs of 1..3 statements in every block of the function (not nested defs): extract-function ranges.
        for node in ast.walk(fn):
            if node is not fn and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            for field in ('body', 'orelse', 'finalbody'):
                body = getattr(node, field, None)
                if not isinstance(body, list) or not body or not isinstance(body[0], ast.stmt):
                    continue
                if node is not fn and self.owner(node) is not fn:
                    continue
                for i in range(len(body)):
                    for k in (1, 2, 3):
                        if i + k > len(body):
                            break
                        first, last = body[i], body[i + k - 1]
                        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and i == 0 and node is fn:
                            break  # the docstring
                        emit(op='extract-function', file=self.file, line=first.lineno, col=first.col_offset + 1,
                             end_line=last.end_lineno, end_col=last.end_col_offset + 1, stmts=k)
        # Expressions in the function's statements: extract-variable ranges.
        for node in ast.walk(fn):
            if isinstance(node, ast.expr) and not isinstance(node, (ast.Name, ast.Starred, ast.Slice, ast.FormattedValue)) \
                    and getattr(node, 'ctx', ast.Load()).__class__ is ast.Load and self.owner(node) is fn:
                if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, str)):
                    continue
                emit(op='extract-variable', file=self.file, line=node.lineno, col=node.col_offset + 1,
                     end_line=node.end_lineno, end_col=node.end_col_offset + 1, kind=type(node).__name__)

    def owner(self, target):
        # The innermost def/lambda/class holding `target` inside the current function.
        found = None

        def go(node, current):
            nonlocal found
            if found is not None:
                return
            if node is target:
                found = current
                return
            nxt = node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)) else current
            for child in ast.iter_child_nodes(node):
                go(child, nxt)
        go(self.stack[-1], self.stack[-1])
        return found


for file in files:
    with open(f'{root}/{file}', 'rb') as fh:
        data = fh.read()
    try:
        tree = ast.parse(data)
    except SyntaxError:
        continue
    lines = data.decode('utf-8', 'replace').split('\n')
    if any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in tree.body):
        emit(op='organize-imports', file=file)
    parents = {}
    w = Walk(file, lines)
    w.visit(tree)
