# change-signature's view of one file: for each place the analysis found (a definition's name, a callee, an
# argument of functools.partial), what the worker sees there: the parameter list with the text of every parameter,
# or the call with the text and kind of every argument. The TS side decides the new text.
import ast

from tugworker.positions import Positions

PARTIAL = ("partial", "functools.partial")


def _dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return inner + "." + node.attr if inner else None
    return None


def _inert(node):
    """Also a list, tuple, set or dict of trivial parts (`[A]`): building one runs nothing, so reordering it cannot
    reorder an effect. (Dropping one stays refused: a removed argument written out is a sign of a mistake.)"""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_inert(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(isinstance(k, ast.Constant) and _inert(v) for k, v in zip(node.keys, node.values))
    return _trivial(node)


def _trivial(node):
    """A literal, a plain name or a lambda: dropping or reordering it cannot drop or reorder an effect (creating a
    lambda runs nothing but its defaults)."""
    if isinstance(node, (ast.Constant, ast.Name)):
        return True
    if isinstance(node, ast.Lambda):
        return all(_trivial(d) for d in node.args.defaults + node.args.kw_defaults if d is not None)
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True
    return False


def _def_info(pos, node):
    a = node.args
    params = []
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)

    def one(arg, kind, default):
        start, end = pos.node_span(arg)
        if default is not None:
            end = pos.node_span(default)[1]
        return {"name": arg.arg, "kind": kind, "span": [start, end], "text": pos.text(start, end), "has_default": default is not None}

    for i, arg in enumerate(positional):
        params.append(one(arg, "posonly" if i < len(a.posonlyargs) else "normal", defaults[i]))
    if a.vararg:
        start, end = pos.node_span(a.vararg)
        params.append({"name": a.vararg.arg, "kind": "vararg", "span": [start - 1, end], "text": pos.text(start - 1, end), "has_default": False})
    for arg, default in zip(a.kwonlyargs, a.kw_defaults):
        params.append(one(arg, "kwonly", default))
    if a.kwarg:
        start, end = pos.node_span(a.kwarg)
        params.append({"name": a.kwarg.arg, "kind": "kwarg", "span": [start - 2, end], "text": pos.text(start - 2, end), "has_default": False})
    # The parameter list: after the `(` that follows the name, up to its matching `)` (before `->` or `:`).
    name_at = pos.data.index(node.name.encode(), pos.offset(node.lineno, node.col_offset))
    open_at = pos.data.index(b"(", name_at + len(node.name))
    close_at = _matching(pos.data, open_at)
    decorators = [_dotted(d.func if isinstance(d, ast.Call) else d) or "?" for d in node.decorator_list]
    return {"kind": "def", "name": node.name, "params": params, "inner": [open_at + 1, close_at], "decorators": decorators}


def _matching(data, open_at):
    depth = 0
    i = open_at
    quote = None
    while i < len(data):
        c = data[i : i + 1]
        if quote:
            if c == b"\\":
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in (b"'", b'"'):
            quote = c
        elif c == b"#":
            i = data.index(b"\n", i) if b"\n" in data[i:] else len(data)
            continue
        elif c in (b"(", b"[", b"{"):
            depth += 1
        elif c in (b")", b"]", b"}"):
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(data)


def _call_info(pos, call, skip):
    args = []
    for arg in call.args[skip:]:
        start, end = pos.node_span(arg)
        if isinstance(arg, ast.Starred):
            args.append({"kind": "star", "span": [start, end], "text": pos.text(start, end), "trivial": False})
        else:
            args.append({"kind": "pos", "span": [start, end], "text": pos.text(start, end), "trivial": _trivial(arg), "inert": _inert(arg)})
    for kw in call.keywords:
        vstart, end = pos.node_span(kw.value)
        if kw.arg is None:
            start = pos.data.rindex(b"**", 0, vstart)
            args.append({"kind": "dstar", "span": [start, end], "text": pos.text(start, end), "trivial": False})
        else:
            start = pos.offset(kw.lineno, kw.col_offset)
            args.append({"kind": "kw", "name": kw.arg, "span": [start, end], "text": pos.text(vstart, end), "trivial": _trivial(kw.value), "inert": _inert(kw.value)})
    args.sort(key=lambda a: a["span"][0])
    func_end = pos.node_span(call.func)[1]
    open_at = pos.data.index(b"(", func_end)
    close_at = pos.node_span(call)[1] - 1
    return {"args": args, "inner": [open_at + 1, close_at], "span": pos.node_span(call)}


def signature_sites(content, offsets):
    data = content.encode("utf-8")
    pos = Positions(data)
    tree = ast.parse(data)
    by_callee = {}
    by_partial = {}
    defs = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = pos.offset(node.lineno, node.col_offset)
            name_at = data.index(node.name.encode(), data.index(b"def", start) + 3)
            defs[name_at] = node
        elif isinstance(node, ast.Call):
            func = node.func
            target = func.attr if isinstance(func, ast.Attribute) else None
            span = pos.node_span(func)
            # The occurrence of an attribute callee is its attribute name, at the end of the expression.
            key = span[1] - len(target.encode()) if target else span[0]
            by_callee[key] = node
            if _dotted(func) in PARTIAL and node.args:
                first = node.args[0]
                fspan = pos.node_span(first)
                fkey = fspan[1] - len(first.attr.encode()) if isinstance(first, ast.Attribute) else fspan[0]
                by_partial[fkey] = node
    passed = _passed(pos, tree)
    sites = []
    for offset in offsets:
        if offset in defs:
            site = _def_info(pos, defs[offset])
        elif offset in by_callee:
            call = by_callee[offset]
            func = call.func
            site = {"kind": "call", "bound": isinstance(func, ast.Attribute), "super": isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and _dotted(func.value.func) == "super", **_call_info(pos, call, 0)}
        elif offset in by_partial:
            call = by_partial[offset]
            site = {"kind": "partial", "bound": isinstance(call.args[0], ast.Attribute), "after_first": pos.node_span(call.args[0])[1], **_call_info(pos, call, 1)}
        else:
            site = {"kind": "other", "passed": offset in passed}
        line, col = pos.line_col(offset)
        site.update({"offset": offset, "line": line, "col": col})
        sites.append(site)
    return {"sites": sites}


# Calls that take a class to inspect it, never to call it: a class passed to them is not a value something calls.
INSPECTING = {"isinstance", "issubclass", "type", "super", "getattr", "setattr", "hasattr", "delattr", "vars", "id", "repr", "str", "print", "cast", "assertIsInstance", "assertNotIsInstance", "register"}
# Calls whose first argument is an exception class to expect (the callable after it is called).
EXPECTING = {"raises", "assertRaises", "assertRaisesRegex", "assertWarns", "assertWarnsRegex", "assert_raises"}


def _passed(pos, tree):
    """Offsets of names passed as an argument to a call that may call them (`assert_raises(E, Cls, "x")`, `map(Cls,
    xs)`): an `__init__` changed under them is called the old way there."""
    out = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = _dotted(node.func) or ""
        last = callee.split(".")[-1]
        if last in INSPECTING:
            continue
        values = [a for i, a in enumerate(node.args) if not (last in EXPECTING and i == 0)] + [k.value for k in node.keywords]
        for value in values:
            if isinstance(value, ast.Name):
                out.add(pos.node_span(value)[0])
            elif isinstance(value, ast.Attribute):
                out.add(pos.node_span(value)[1] - len(value.attr.encode()))
    return out
