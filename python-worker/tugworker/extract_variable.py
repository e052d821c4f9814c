# extract-variable for Python: the expression in a byte range becomes `NAME = <expr>` on a line of its own before the
# statement that holds it. Refused wherever moving the evaluation there could change what the code does.
import ast

from tugworker.fstrings import prints_itself
from tugworker.local_edits import COMPREHENSIONS, Refused, Source, check_identifier, edit, has_effects, names_in, own_nodes, short, trimmed


def _expression_at(source, start, end):
    best = None
    for node in ast.walk(source.tree):
        if not isinstance(node, ast.expr) or not hasattr(node, "end_lineno"):
            continue
        s, e = source.span(node)
        inner = (s, e) == (start, end)
        # `(a + b)` selected with its parentheses: the node's span is what is inside them.
        wrapped = s > start and e < end and source.slice(start, s).strip() == "(" and source.slice(e, end).strip() == ")"
        if (inner or wrapped) and (best is None or best in set(ast.walk(node))):
            best = node
    if best is None:
        raise Refused("InvalidSelection", "the range is not one whole expression", {"reason": "select exactly one expression (whitespace around it is ignored)"})
    return best


def _refuse(reason, node, source):
    line, col = source.position(source.span(node)[0])
    raise Refused("UnsafeRefactor", "cannot extract this expression: %s" % reason, {"reason": reason, "line": line, "col": col})


def _check_context(source, node, statement):
    """Walks from the expression to its statement, refusing every place a hoisted evaluation means something else."""
    if isinstance(node, (ast.Starred, ast.Slice)) or isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
        _refuse("it is not a value (an assignment target, a slice or a starred item)", node, source)
    grandchild, child = None, node
    # A literal has the same value whenever and however often it is evaluated, and evaluating it does nothing: the
    # places below that may not evaluate the expression (or evaluate it again) cannot tell it was hoisted.
    literal = _literal(node)
    for parent in source.ancestors(node):
        if isinstance(parent, ast.Lambda):
            _refuse("it is inside a lambda, which runs later and may run many times", node, source)
        # Only a comprehension's first iterable is evaluated where the comprehension stands.
        if isinstance(parent, COMPREHENSIONS) and not (child is parent.generators[0] and grandchild is child.iter):
            _refuse("it is inside a comprehension, whose names are its own and which runs it once per item", node, source)
        if isinstance(parent, ast.comprehension) and child is not parent.iter:
            _refuse("it is part of a comprehension's loop", node, source)
        if isinstance(parent, ast.BoolOp) and child is not parent.values[0] and not literal:
            _refuse("it is on the right of and/or, which may not evaluate it", node, source)
        if isinstance(parent, ast.IfExp) and child is not parent.test and not literal:
            _refuse("it is a branch of a conditional expression, which may not evaluate it", node, source)
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            _refuse("it is part of a def or class line (decorator, default, annotation or base)", node, source)
        if isinstance(parent, ast.While) and child is parent.test and not literal:
            _refuse("it is a while condition, evaluated again on every iteration", node, source)
        if isinstance(parent, ast.ExceptHandler):
            _refuse("it is an except clause's exception type, evaluated only when something is raised", node, source)
        if isinstance(parent, (ast.match_case, ast.pattern)):
            _refuse("it is part of a match case", node, source)
        if isinstance(parent, ast.If) and child is parent.test and source.slice(*source.span(parent))[:4] == "elif" and not literal:
            _refuse("it is an elif condition, evaluated only when the branches before it are not taken", node, source)
        if parent is statement:
            break
        grandchild, child = child, parent
    s, e = source.span(node)
    if prints_itself(source.tree, source.data, source.offset, s, e):
        _refuse("it is in an f-string field ending in `=`, which prints the expression's own text", node, source)


def _literal(node):
    """A constant, a signed number, or a tuple of those: no names, no calls, nothing that can fail or change."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, (int, float, complex))
    return isinstance(node, ast.Tuple) and all(_literal(e) for e in node.elts)


def _evaluated_before(source, statement, node):
    """The nodes of the statement that run before the expression: those before it in the text, and an assignment's
    value when the expression is in a target (targets are evaluated after the value)."""
    start = source.span(node)[0]
    inside = set(ast.walk(node))
    value = getattr(statement, "value", None) if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
    in_target = value is not None and node not in set(ast.walk(value))
    after_value = set(ast.walk(value)) if in_target else set()
    return [n for n in ast.walk(statement) if n not in inside and hasattr(n, "end_lineno") and (source.span(n)[1] <= start or n in after_value)]


def _check_order(source, node, statement, strict):
    """Refuses where hoisting provably changes a value (a := before it assigns a name it reads, or one in it assigns a
    name read before it); otherwise the warning saying which calls now run in another order, if any."""
    before = _evaluated_before(source, statement, node)
    reads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    binds = {n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr)}
    for n in before:
        if isinstance(n, ast.NamedExpr) and n.target.id in reads:
            _refuse("it reads %s, which := assigns before it in the statement" % n.target.id, node, source)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in binds:
            _refuse("it assigns %s with :=, which the statement reads before it" % n.id, node, source)
    if not has_effects(node):
        return []
    earlier = [n for n in before if isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom))]
    # Only the outermost: `f(g())` is one evaluation that runs before.
    earlier = [n for n in earlier if not any(n is not o and n in set(ast.walk(o)) for o in earlier)]
    if not earlier:
        return []
    if strict:
        _refuse("it calls something and the statement calls something before it; extracting would swap the two", node, source)
    moved = short(source, node)
    line, col = source.position(source.span(node)[0])
    calls = [short(source, n) for n in sorted(earlier, key=lambda n: source.span(n)[0])]
    message = "%s now runs before %s, which ran first in the statement (strict refuses this)" % (moved, ", ".join(calls))
    return [{"code": "EvaluationOrderChanged", "message": message, "line": line, "col": col, "calls": calls}]


def _same_block_later(source, statement, node, expression):
    """Copies of the expression in the statement's block from the statement on, until a name it reads is assigned."""
    block = source.parent[statement]
    body = next(b for b in (getattr(block, f, None) for f in ("body", "orelse", "finalbody", "handlers")) if isinstance(b, list) and statement in b)
    reads = {n.id for n in ast.walk(expression) if isinstance(n, ast.Name)}
    # An expression that reads object state (or module globals) may change under any call; local names cannot.
    state = any(isinstance(n, (ast.Attribute, ast.Subscript)) for n in ast.walk(expression)) or isinstance(source.scope_of(expression), ast.Module)
    wanted = ast.dump(expression)
    origin = source.span(expression)[1]
    found = []
    for stmt in body[body.index(statement) :]:
        stores = []
        for n in [stmt, *own_nodes(stmt)]:
            if isinstance(n, ast.expr) and n is not expression and ast.dump(n) == wanted:
                found.append(n)
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id in reads:
                stores.append(n)
            if isinstance(n, (ast.Attribute, ast.Subscript)) and not isinstance(n.ctx, ast.Load) and _root(n) in reads:
                stores.append(n)
            if state and isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)) and source.span(n)[0] >= origin:
                stores.append(n)
        if stores:
            # Copies before the first store in this statement's evaluation still read the old values; later ones do not.
            first = min(source.span(s)[0] for s in stores)
            found = [n for n in found if source.span(n)[1] <= first]
            break
    return [n for n in found if n is not expression]


def _in_place(source, node, start, end, name):
    """What replaces the expression: its name, or `(name)` for a generator that is a call's only argument, whose
    parentheses are the call's own (`tuple(x for x in xs)`: the generator's span starts at the call's `(`)."""
    parent = source.parent.get(node)
    if isinstance(node, ast.GeneratorExp) and isinstance(parent, ast.Call) and source.span(parent)[1] == end and source.data[start : start + 1] == b"(":
        return "(%s)" % name
    return name


def _with_own_parentheses(source, node):
    """The node's span, widened to parentheses around it that only group it (not a call's or a def's)."""
    start, end = source.span(node)
    before = source.data[:start].rstrip()
    after = source.data[end:].lstrip()
    if not (before.endswith(b"(") and after.startswith(b")")):
        return start, end
    parent = source.parent.get(node)
    if isinstance(parent, (ast.Call, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node is not getattr(parent, "func", None):
        return start, end
    if isinstance(parent, ast.GeneratorExp):
        return start, end
    return len(before) - 1, len(source.data) - len(after) + 1


def _parses(code):
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def _root(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def extract_variable(content, start, end, name, replace_all=False, strict=False):
    source = Source(content)
    name = check_identifier(name)
    start, end = trimmed(source, start, end)
    node = _expression_at(source, start, end)
    statement = source.statement_of(node)
    _check_context(source, node, statement)
    warnings = _check_order(source, node, statement, strict)
    indent = source.indentation_before(statement)
    if indent is None:
        _refuse("its statement shares a line with other code", node, source)
    scope = source.scope_of(node)
    if name in names_in(scope):
        line, col = source.position(source.span(node)[0])
        raise Refused("NameConflict", "%s is already a name in this scope" % name, {"name": name, "line": line, "col": col})
    s, e = source.span(node)
    text = source.slice(s, e)
    if isinstance(node, ast.NamedExpr) or ("\n" in text and not _parses("%s = %s" % (name, text))):
        # `v = n := 1` does not parse; nor does a value that ran over lines inside parentheses it leaves behind
        # (simplejson's `((uni - 0xd800) << 10) |` newline `(uni2 - 0xdc00)`, which starts and ends with a bracket).
        text = "(%s)" % text
    copies = []
    if replace_all:
        if has_effects(node):
            _refuse("it calls something; one variable for every copy would run it once instead of each time", node, source)
        copies = _same_block_later(source, statement, node, node)
        for copy in copies:
            _check_context(source, copy, source.statement_of(copy))
            _check_order(source, copy, source.statement_of(copy), True)
    statement_start = source.line_start(source.span(statement)[0])
    if (start, end) == (s, e):
        start, end = _with_own_parentheses(source, node)
    edits = [edit(source, statement_start, statement_start, "%s%s = %s%s" % (indent, name, text, source.newline(statement_start))), edit(source, start, end, _in_place(source, node, start, end, name))]
    for copy in copies:
        span = _with_own_parentheses(source, copy)
        edits.append(edit(source, *span, _in_place(source, copy, *span, name)))
    return {"edits": sorted(edits, key=lambda e: e["span"]), "replaced": 1 + len(copies), "warnings": warnings}
