# extract-function for Python: whole statements in a byte range become a new function (or a method, when they use
# `self`), called where they were. Parameters are the names the statements read that were bound before them; return
# values are the names they bind that the code after them reads. Refused where that would not mean the same.
import ast

from tugworker.local_edits import SCOPES, Refused, Source, check_identifier, edit, names_in, own_nodes

FLOW = (ast.Return, ast.Yield, ast.YieldFrom)
LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _refuse(reason, source, node):
    line, col = source.position(source.span(node)[0])
    raise Refused("UnsafeRefactor", "cannot extract these statements: %s" % reason, {"reason": reason, "line": line, "col": col})


def _statements(source, start, end):
    """The sibling statements the range covers exactly (whitespace around it ignored)."""
    data = source.data
    while start < end and data[start : start + 1].isspace():
        start += 1
    while end > start and data[end - 1 : end].isspace():
        end -= 1
    for node in ast.walk(source.tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list) or not body or not isinstance(body[0], ast.stmt):
                continue
            starts = [source.span(s)[0] for s in body]
            ends = [source.span(s)[1] for s in body]
            if start in starts and end in ends and starts.index(start) <= ends.index(end):
                return body[starts.index(start) : ends.index(end) + 1]
    raise Refused("InvalidSelection", "the range is not whole statements of one block", {"reason": "select complete statements, from the start of the first to the end of the last"})


def _walk_own(statements):
    """Nodes of the statements, not descending into functions, classes, lambdas or comprehensions defined there."""
    for statement in statements:
        yield statement
        yield from own_nodes(statement)


def _check_flow(source, statements):
    for node in _walk_own(statements):
        if isinstance(node, FLOW):
            _refuse("they contain %s, which would leave the new function instead" % type(node).__name__.lower().replace("from", " from"), source, node)
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            _refuse("they declare names global or nonlocal", source, node)
        if isinstance(node, (ast.Break, ast.Continue)) and not any(isinstance(a, LOOPS) and any(a is s or a in set(ast.walk(s)) for s in statements) for a in source.ancestors(node)):
            _refuse("they %s a loop that encloses them" % ("break out of" if isinstance(node, ast.Break) else "continue"), source, node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("locals", "vars", "super") and not node.args:
            _refuse("they call %s(), which depends on the function it runs in" % node.func.id, source, node)


def _bound(nodes):
    out = set()
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def _definitely_bound(statement):
    """Names a statement binds on every path through it (an assignment, import, def or class at its top)."""
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return _bound([statement, *own_nodes(statement)]) if not isinstance(statement, ast.AnnAssign) or statement.value is not None else set()
    return set()


def _reads(statements):
    return [n for s in statements for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def _dataflow(source, scope, statements):
    start, end = source.span(statements[0])[0], source.span(statements[-1])[1]
    scope_nodes = list(own_nodes(scope))
    locals_ = _bound(scope_nodes)
    arguments = [a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)] if not isinstance(scope, ast.Module) else []
    locals_.update(arguments)
    before = {n.id for n in scope_nodes if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and source.span(n)[1] <= start}
    before |= {n.name for n in scope_nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and source.span(n)[1] <= start}
    before |= {(a.asname or a.name).split(".")[0] for n in scope_nodes if isinstance(n, (ast.Import, ast.ImportFrom)) and source.span(n)[1] <= start for a in n.names}
    before |= set(arguments)
    params = []
    assigned = set()
    for statement in statements:
        for name in _reads([statement]):
            if name.id in locals_ and name.id in before and name.id not in assigned and name.id not in params:
                params.append(name.id)
        assigned |= _definitely_bound(statement)
    written = _bound(_walk_own(statements))
    loop = next((a for a in source.ancestors(statements[0]) if isinstance(a, LOOPS) and a is not scope), None)
    later = {n.id for n in scope_nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and (source.span(n)[0] >= end or (loop is not None and source.span(loop)[0] <= source.span(n)[0] < start))}
    returns = sorted(w for w in written if w in later and w in locals_)
    # Module level: a later statement may read any global, and other modules may import it; keep what it binds.
    if isinstance(scope, ast.Module):
        returns = sorted(w for w in written if w in locals_ and (w in later or not w.startswith("_")))
    return params, returns


def _reindented(source, statements, old, new):
    first = source.line_start(source.span(statements[0])[0])
    end = source.span(statements[-1])[1]
    last = source.data.find(b"\n", end)
    last = len(source.data) if last < 0 else last + 1
    for node in ast.walk(ast.Module(body=list(statements), type_ignores=[])):
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and getattr(node, "end_lineno", node.lineno) > node.lineno and isinstance(getattr(node, "value", ""), (str, bytes, list)) and len(old) != len(new):
            _refuse("a string spans lines and would change with the new indentation", source, node)
    lines = source.slice(first, last).splitlines(True)
    out = []
    for line in lines:
        if line.strip() == "":
            out.append("\n" if line.endswith("\n") else "")
        elif line.startswith(old):
            out.append(new + line[len(old) :])
        else:
            out.append(new + line.lstrip(" \t"))
    text = "".join(out)
    return first, last, text if text.endswith("\n") else text + "\n"


def extract_function(content, start, end, name):
    source = Source(content)
    check_identifier(name)
    statements = _statements(source, start, end)
    scope = source.scope_of(statements[0])
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        _refuse("they are in a class body; extract from a function or the module", source, statements[0])
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and not isinstance(source.scope_of(scope), (ast.Module, ast.ClassDef)):
        _refuse("they are in a nested function, whose free names the new function would not see", source, statements[0])
    _check_flow(source, statements)
    indent = source.indentation_before(statements[0])
    if indent is None or "\t" in indent:
        _refuse("the first statement shares its line with other code, or the block is indented with tabs", source, statements[0])
    params, returns = _dataflow(source, scope, statements)
    owner = source.scope_of(scope) if not isinstance(scope, ast.Module) else None
    method = isinstance(owner, ast.ClassDef) and scope.args.args and scope.args.args[0].arg in params
    if method:
        if any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in scope.decorator_list):
            _refuse("they use the first parameter of a static or class method", source, statements[0])
        receiver = scope.args.args[0].arg
        params.remove(receiver)
    taken = names_in(owner) if method else {n for s in source.tree.body for n in _bound([s])}
    if name in taken or name in {n.id for n in ast.walk(source.tree) if isinstance(n, ast.Name)}:
        raise Refused("NameConflict", "%s is already a name %s" % (name, "in the class" if method else "in the module"), {"name": name})
    is_async = any(isinstance(n, (ast.Await, ast.AsyncFor, ast.AsyncWith)) for n in _walk_own(statements))
    if method:
        anchor, def_indent = scope, source.indentation_before(scope) or ""
        body_indent = def_indent + "    "
    else:
        anchor = scope if isinstance(scope, ast.Module) else next(s for s in source.tree.body if s is scope or scope in set(ast.walk(s)))
        body_indent, def_indent = "    ", ""
    if isinstance(scope, ast.Module):
        anchor = next(s for s in source.tree.body if s is statements[0] or statements[0] in set(ast.walk(s)))
    first, last, body = _reindented(source, statements, indent, body_indent)
    signature = ", ".join(([receiver] if method else []) + params)
    result = ", ".join(returns)
    definition = "%s%sdef %s(%s):\n%s%s" % (def_indent, "async " if is_async else "", name, signature, body, "%sreturn %s\n" % (body_indent, result) if returns else "")
    call = "%s%s(%s)" % ("%s." % receiver if method else "", name, ", ".join(params))
    call = "%s%s%s%s\n" % (indent, "%s = " % result if returns else "", "await " if is_async else "", call)
    edits = [edit(source, first, last, call)]
    if isinstance(scope, ast.Module):
        at = source.line_start(source.span(anchor)[0])
        edits.append(edit(source, at, at, definition + "\n\n"))
    else:
        anchor_end = source.span(anchor)[1]
        newline = source.data.find(b"\n", anchor_end)
        at = len(source.data) if newline < 0 else newline + 1
        edits.append(edit(source, at, at, ("\n" if method else "\n\n") + definition))
    return {"edits": sorted(edits, key=lambda e: e["span"]), "params": params, "returns": returns, "method": bool(method), "async": is_async}
