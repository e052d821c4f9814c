# extract-function for Python: whole statements in a byte range become the body of a new function (a method when they
# use `self`), called where they stood. Parameters are the enclosing function's names the statements read that are
# bound before them; results are the names they assign that code outside them reads afterwards.
import ast

from tugworker.exposed import assigned, exposed
from tugworker.local_edits import SCOPES, Refused, Source, check_identifier, edit, names_in, own_nodes, trimmed

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
BRANCHING = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try) + ((ast.Match,) if hasattr(ast, "Match") else ()) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())


def _refuse(code, source, offset, message, **details):
    line, col = source.position(offset)
    raise Refused(code, message, {"reason": message, "line": line, "col": col, **details})


def _statements_at(source, start, end):
    """The run of sibling statements the range covers exactly, or InvalidSelection."""
    for node in ast.walk(source.tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list) or not block or not isinstance(block[0], ast.stmt):
                continue
            if field == "orelse" and isinstance(node, ast.If) and len(block) == 1 and _is_elif(source, block[0]):
                continue  # an `elif` clause is part of its `if` statement, not a statement of its own
            starts = [source.span(s)[0] for s in block]
            ends = [source.span(s)[1] for s in block]
            if start in starts and end in ends and starts.index(start) <= ends.index(end):
                return node, block[starts.index(start) : ends.index(end) + 1]
    _refuse("InvalidSelection", source, start, "the range is not a run of whole statements in one block (it cuts a statement or spans two blocks)")


def _is_docstring(block, statement):
    return (
        isinstance(block, (ast.Module, ast.ClassDef) + FUNCTIONS)
        and statement is block.body[0]
        and isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _is_elif(source, node):
    start = source.span(node)[0]
    return isinstance(node, ast.If) and source.data[start : start + 4] == b"elif"


def _own(statements):
    """The nodes of the statements that belong to their scope (nested functions, classes and comprehensions excluded)."""
    for statement in statements:
        yield statement
        if not isinstance(statement, SCOPES):
            yield from own_nodes(statement)


def _check_flow(source, statements, tail):
    for statement in statements:
        stack = [(statement, False)]
        while stack:
            node, in_loop = stack.pop()
            offset = source.span(node)[0] if hasattr(node, "lineno") else source.span(statement)[0]
            if isinstance(node, ast.Return) and not tail:
                _refuse("UnsafeRefactor", source, offset, "the range contains a return, which would return from the new function instead")
            if isinstance(node, (ast.Yield, ast.YieldFrom)):
                _refuse("UnsafeRefactor", source, offset, "the range contains a yield, which would make the new function a generator")
            if isinstance(node, (ast.Break, ast.Continue)) and not in_loop:
                _refuse("UnsafeRefactor", source, offset, "the range contains a break or continue for a loop outside it")
            if isinstance(node, ast.Delete) and any(isinstance(t, ast.Name) for t in node.targets):
                _refuse("UnsafeRefactor", source, offset, "the range deletes a local name, which the new function cannot do for its caller")
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                _refuse("UnsafeRefactor", source, offset, "the range declares global or nonlocal names")
            if isinstance(node, SCOPES):
                continue
            loop_body = isinstance(node, LOOPS)
            for child in ast.iter_child_nodes(node):
                stack.append((child, in_loop or (loop_body and child not in getattr(node, "orelse", []))))


def _bound(node):
    """The names a node binds in its own scope."""
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        return [node.id]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.alias):
        return [(node.asname or node.name).split(".")[0]]
    if isinstance(node, ast.ExceptHandler) and node.name:
        return [node.name]
    return []


def _reads(nodes):
    return [n for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def _always_exits(statements):
    """Whether control never leaves the statements by their end: the last one returns or raises, or is an if (or a
    with, or a try without finally whose body and handlers all do) every branch of which does."""
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return _always_exits(last.body) and _always_exits(last.orelse)
    if isinstance(last, (ast.With, ast.AsyncWith)):
        # A context manager may swallow an exception and go on after the with; only a return is sure to leave.
        return isinstance(last.body[-1], ast.Return) and _always_exits(last.body)
    if isinstance(last, ast.Try) and not last.finalbody:
        return _always_exits(last.orelse or last.body) and all(_always_exits(h.body) for h in last.handlers)
    return False


def _analyse(source, scope, statements, start, end, exits=False):
    inside = set()
    for statement in statements:
        inside.update(ast.walk(statement))
    everything = list(ast.walk(scope)) if isinstance(scope, ast.Module) else [scope, *ast.walk(scope)]
    outside = [n for n in everything if n not in inside]
    arguments = [a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)] if isinstance(scope, FUNCTIONS) else []
    own_scope = [n for n in (own_nodes(scope)) if n not in inside]
    before = set(arguments)
    for node in own_scope:
        if hasattr(node, "end_lineno") and source.span(node)[1] <= start:
            before.update(_bound(node))
    # `except E as e:` binds e for the handler's body, but the handler ends after a range inside it: e is bound before
    # the range all the same (iso8601's `raise ParseError(e)`, extracted, read an undefined e).
    for ancestor in source.ancestors(statements[0]):
        if isinstance(ancestor, SCOPES):
            break
        if isinstance(ancestor, ast.ExceptHandler) and ancestor.name:
            before.add(ancestor.name)
    written = []
    for node in _own(statements):
        for name in _bound(node):
            if name not in written:
                written.append(name)
    in_loop = any(isinstance(a, LOOPS) for a in source.ancestors(statements[0]) if not isinstance(a, SCOPES)) and not isinstance(scope, ast.Module)
    # A function nested here (defined before the range too) reads its free names when it is called, which may be after
    # the range: a name the range assigns and such a function reads is a result (simplejson's `_iterencode_list`
    # calls `_iterencode_dict`, defined later in the same function).
    read_outside = {n.id for n in _reads(outside) if in_loop or isinstance(scope, ast.Module) or source.span(n)[0] >= end or source.scope_of(n) is not scope}
    # A module's names are its attributes, which other modules may read: every one the range assigns stays assigned.
    results = written if isinstance(scope, ast.Module) else [name for name in written if name in read_outside]
    if exits:
        # The range returns (or raises) for the function: no code after it reads what it assigned, but a function
        # nested before it that reads one of those names later would find it unbound in the enclosing function.
        late = sorted({n.id for n in _reads(outside) if source.scope_of(n) is not scope} & set(written))
        if late:
            _refuse("UnsafeRefactor", source, start, "%s, which a function nested before the range reads when it is called, would no longer be bound in the enclosing function once the range returns" % ", ".join(late), name=late[0])
        results = []
    if in_loop:
        later = {name for n in own_scope if hasattr(n, "end_lineno") and source.span(n)[0] >= end for name in _bound(n)}
        for node in _reads(inside):
            if node.id in later and node.id not in before and node.id not in written:
                _refuse("UnsafeRefactor", source, source.span(node)[0], "%s is read in the range but assigned only later in the loop" % node.id, name=node.id)
    if isinstance(scope, FUNCTIONS):
        # A function defined in the range reads its free names when it is called: one the enclosing function binds only
        # after the range never reaches the new function (simplejson's `_iterencode_list`, extracted with its
        # neighbours, called `_iterencode_dict`, defined further down: NameError).
        bound_inside = {name for n in inside for name in _bound(n)} | {n.arg for n in inside if isinstance(n, ast.arg)}
        bound_after = {name for n in own_scope if hasattr(n, "end_lineno") and source.span(n)[0] >= end for name in _bound(n)}
        for node in sorted(_reads(inside), key=lambda n: source.span(n)[0]):
            if source.scope_of(node) is not scope and node.id in bound_after and node.id not in before and node.id not in bound_inside:
                _refuse("UnsafeRefactor", source, source.span(node)[0], "%s, which a function defined in the range reads when it is called, is bound in the enclosing function only after the range" % node.id, name=node.id)
    read_order = []
    # `s += x` reads s before it writes it: the target counts as a read where it stands.
    updated = [n.target for n in inside if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)]
    for node in sorted(_reads(inside) + updated, key=lambda n: source.span(n)[0]):
        if node.id not in read_order:
            read_order.append(node.id)
    if isinstance(scope, ast.Module):
        # Module names stay visible as globals; only those the range also assigns must come in as parameters.
        params = [name for name in read_order if name in before and name in written]
    else:
        # Only what a read may take from before the range: a name the range assigns before every read of it is its own.
        taken = exposed(statements)
        params = [name for name in read_order if name in before and name in taken]
    always = assigned(statements)
    for name in results:
        # A result the range may leave as it was comes in to go out again; one it always assigns needs no value in.
        if name in before and name not in params and name not in always:
            params.append(name)
        if name not in before and name not in always:
            _refuse("UnsafeRefactor", source, start, "%s is assigned only on some paths in the range and is not bound before it" % name, name=name)
    return params, results


def _annotations(source, scope):
    """The types the enclosing function declares for its names: its parameters' annotations and its `name: T`
    statements, where each name has one (a function with type parameters is left out: its types mean nothing outside)."""
    if not isinstance(scope, FUNCTIONS) or getattr(scope, "type_params", None):
        return {}
    found = {}
    args = scope.args
    for a in args.posonlyargs + args.args + args.kwonlyargs:
        if a.annotation is not None:
            found.setdefault(a.arg, set()).add(source.slice(*source.span(a.annotation)))
    for n in own_nodes(scope):
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            found.setdefault(n.target.id, set()).add(source.slice(*source.span(n.annotation)))
    return {name: texts.pop() for name, texts in found.items() if len(texts) == 1 and "\n" not in next(iter(texts))}


def _enclosing(source, statements, start):
    scope = source.scope_of(statements[0])
    if isinstance(scope, ast.ClassDef):
        _refuse("UnsafeRefactor", source, start, "the statements are in a class body; extract from a function or the module")
    if isinstance(scope, FUNCTIONS):
        if any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in ast.walk(scope)):
            _refuse("UnsafeRefactor", source, start, "the enclosing function declares global or nonlocal names")
        outer = [a for a in source.ancestors(scope) if isinstance(a, SCOPES) and not isinstance(a, ast.Module)]
        if any(not isinstance(a, (ast.ClassDef, *FUNCTIONS)) for a in outer):
            _refuse("UnsafeRefactor", source, start, "the enclosing function is nested in a lambda or comprehension")
    return scope


def _decorator_name(node):
    """`staticmethod` for `@staticmethod` and `@builtins.staticmethod`; None for a call or anything else."""
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None


def _beside(source, scope):
    """Where a new function sees what the enclosing one sees: for a function nested in another (`def outer(): x = 1;
    def inner(): …`), the def or class statement of the outer function's own body that holds it, before which the new
    function goes (its closure then reaches the outer names as inner's does); None at module level."""
    if not isinstance(scope, FUNCTIONS):
        return None
    holder = scope
    for a in source.ancestors(scope):
        if isinstance(a, FUNCTIONS):
            return holder
        if isinstance(a, ast.ClassDef):
            holder = a
    return None


def _body(source, statements, indent):
    """The statements' lines, moved to the new indentation (lines inside multi-line strings kept as they are)."""
    first, last = statements[0], statements[-1]
    keep = set()
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, (ast.Constant, ast.JoinedStr)) and hasattr(node, "end_lineno") and node.end_lineno > node.lineno:
                keep.update(range(node.lineno + 1, node.end_lineno + 1))
    base = source.indentation_before(first)
    lines = []
    for number in range(first.lineno, last.end_lineno + 1):
        text = source.slice(source.starts[number - 1], source.starts[number] if number < len(source.starts) else len(source.data)).rstrip("\r\n")
        if number in keep or not text.strip():
            lines.append(text if number in keep else "")
        else:
            stripped = text[len(base) :] if text.startswith(base) else text.lstrip()
            lines.append(indent + stripped)
    return "\n".join(lines)


def _newlines(source, text):
    """The text with the file's own line ending."""
    return text.replace("\n", "\r\n") if b"\r\n" in source.data else text


def _line_end(source, offset):
    """The offset of the end of the line holding offset (before its newline)."""
    newline = source.data.find(b"\n", offset)
    end = len(source.data) if newline < 0 else newline
    return end - 1 if source.data[end - 1 : end] == b"\r" and end > offset else end


def _merged(source, edits):
    """The edits in file order, an insertion that touches the replaced statements joined to that replacement."""
    edits = sorted(edits, key=lambda e: (e["span"][0], e["span"][1]))
    out = []
    for e in edits:
        if out and out[-1]["span"][1] == e["span"][0]:
            last = out.pop()
            e = edit(source, last["span"][0], e["span"][1], last["new_text"] + e["new_text"])
        out.append(e)
    return out


def extract_function(content, start, end, name):
    source = Source(content)
    name = check_identifier(name)
    start, end = trimmed(source, start, end)
    block, statements = _statements_at(source, start, end)
    # The statements that end a function's body may return: the call's value is then the function's.
    tail = isinstance(block, FUNCTIONS) and statements[-1] is block.body[-1] and any(isinstance(n, ast.Return) for n in _own(statements))
    # Statements that never go on past their end (`…; return x`, or an if whose branches all return or raise) may
    # return anywhere too: the call's value is the function's, and nothing after them runs on their values.
    exits = not tail and _always_exits(statements) and any(isinstance(n, ast.Return) for n in _own(statements))
    tail = tail or exits
    first = statements[0]
    if _is_docstring(block, first):
        what = "the module" if isinstance(block, ast.Module) else block.name
        _refuse("UnsafeRefactor", source, start, "the range starts with the docstring of %s, which would lose it" % what)
    if source.indentation_before(first) is None or source.slice(end, _line_end(source, end)).strip()[:1] not in ("", "#"):
        _refuse("InvalidSelection", source, start, "the statements share a line with other code")
    _check_flow(source, statements, tail)
    scope = _enclosing(source, statements, start)
    params, results = _analyse(source, scope, statements, start, end, tail)
    inside = [n for s in statements for n in ast.walk(s)]
    is_async = any(isinstance(n, (ast.Await, ast.AsyncFor, ast.AsyncWith)) for n in _own(statements))
    method = isinstance(scope, FUNCTIONS) and isinstance(source.parent.get(scope), ast.ClassDef) and scope.args.args
    receiver = scope.args.args[0].arg if method else None
    uses_receiver = receiver is not None and any(isinstance(n, ast.Name) and n.id in (receiver, "super", "__class__") for n in inside)
    if not uses_receiver and any(isinstance(n, ast.Name) and n.id in ("super", "__class__") for n in inside):
        _refuse("UnsafeRefactor", source, start, "the range uses super() or __class__ outside a method")
    binders = [d for d in scope.decorator_list if _decorator_name(d) in ("staticmethod", "classmethod")] if uses_receiver else []
    # Methods Python binds to the class without a decorator: `__new__` (a static method that gets the class first),
    # `__init_subclass__` and `__class_getitem__` (class methods). Called as `cls.new(...)`, a plain method would not
    # get the class: the new method is a classmethod, which does.
    implicit = uses_receiver and scope.name in ("__new__", "__init_subclass__", "__class_getitem__")
    # A classmethod's receiver is the class: the new method is one too. Any other decorator leaves `self` as it is.
    as_classmethod = (len(binders) == 1 and _decorator_name(binders[0]) == "classmethod" and len(scope.decorator_list) == 1) or (
        implicit and not scope.decorator_list
    )
    if (binders or implicit) and not as_classmethod:
        _refuse("UnsupportedOperation", source, start, "the enclosing method is decorated (a classmethod or staticmethod would not bind %s the same way)" % receiver)
    # A method keeps its new sibling in its class; any other function nested in a function gets it beside itself.
    beside = None if uses_receiver else _beside(source, scope)
    if uses_receiver:
        params = [p for p in params if p != receiver]
        cls = source.parent[scope]
        taken = names_in(cls) | {n.attr for n in ast.walk(source.tree) if isinstance(n, ast.Attribute)}
        if name in taken or name in {n for s in cls.body for n in _bound(s)}:
            _refuse("NameConflict", source, start, "%s is already a name in class %s" % (name, cls.name), name=name)
    elif name in names_in(source.tree):
        _refuse("NameConflict", source, start, "%s is already a name in this module" % name, name=name)
    call = "%s%s(%s)" % ("%s." % receiver if uses_receiver else "", name, ", ".join(params))
    if is_async:
        call = "await " + call
    if tail:
        call = "return " + call
    if results:
        call = "%s = %s" % (", ".join(results), call)
    # The types the enclosing function declares go with the names into the new signature (and the return it gives).
    types = _annotations(source, scope)
    typed = ["%s: %s" % (p, types[p]) if p in types else p for p in params]
    returns = ""
    if tail and scope.returns is not None and not results:
        returns = " -> %s" % source.slice(*source.span(scope.returns))
    elif len(results) == 1 and results[0] in types and not tail:
        returns = " -> %s" % types[results[0]]
    signature = "%sdef %s(%s)%s:" % ("async " if is_async else "", name, ", ".join(([receiver] if uses_receiver else []) + typed), returns)
    # A comment after the last statement goes with it into the new body.
    edits = [edit(source, start, _line_end(source, end), call)]
    if uses_receiver:
        indent = source.indentation_before(scope) or ""
        body = _body(source, statements, indent + "    ")
        if results:
            body += "\n%s    return %s" % (indent, ", ".join(results))
        at = _line_end(source, source.span(scope)[1])
        decorator = "%s@classmethod\n" % indent if as_classmethod else ""
        edits.append(edit(source, at, at, "\n\n%s%s%s\n%s" % (decorator, indent, signature, body)))
    elif beside is not None:
        indent = source.indentation_before(beside) or ""
        body = _body(source, statements, indent + "    ")
        if results:
            body += "\n%s    return %s" % (indent, ", ".join(results))
        line = min([beside.lineno] + [d.lineno for d in beside.decorator_list])
        at = source.starts[line - 1]
        edits.append(edit(source, at, at, "%s%s\n%s\n\n" % (indent, signature, body)))
    else:
        body = _body(source, statements, "    ")
        if results:
            body += "\n    return %s" % ", ".join(results)
        top = statements[0]
        while source.parent.get(top) is not source.tree:
            top = source.parent[top]
        if isinstance(scope, ast.Module):
            line = min([top.lineno] + [d.lineno for d in getattr(top, "decorator_list", [])])
            at = source.starts[line - 1]
            above = source.data[: max(at - 1, 0)].rsplit(b"\n", 1)[-1].strip()
            edits.append(edit(source, at, at, "%s%s\n%s\n\n\n" % ("\n\n" if at and above else "", signature, body)))
        else:
            at = _line_end(source, source.span(top)[1])
            edits.append(edit(source, at, at, "\n\n\n%s\n%s" % (signature, body)))
    edits = [edit(source, *e["span"], _newlines(source, e["new_text"])) for e in edits]
    return {"edits": _merged(source, edits), "params": params, "results": results, "method": bool(uses_receiver), "async": is_async}
