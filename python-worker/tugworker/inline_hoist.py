# inline of a function whose body has statements, at a call inside a larger expression (`if matches(t, s):`,
# `warn(text_for(name), Warning)`): the body goes before the statement and the returned value takes the call's place.
# The body then runs before whatever the statement evaluated ahead of the call, so that part may only be constants,
# names nothing can rebind meanwhile and attributes of imported modules; anything else is refused with what it is.
import ast

from tugworker.local_edits import has_effects, own_nodes

# What may be evaluated before the call: loads of names and constants, and tuples, lists or sets of them (which read
# nothing of the objects); an operator, an attribute or an item reads state the body could change.
PLAIN = (ast.Name, ast.Constant, ast.Tuple, ast.List, ast.Set, ast.keyword, ast.expr_context)
# The statements that evaluate the expression holding the call exactly once, and the field holding it.
ONCE = {ast.Expr: "value", ast.Assign: "value", ast.AnnAssign: "value", ast.AugAssign: "value", ast.Return: "value", ast.If: "test", ast.For: "iter", ast.Raise: "exc"}


def hoist_refusal(site):
    """Why the body cannot go before the statement holding the call, or None when it can."""
    statement, call, src = site.statement, site.call, site.module.src
    field = ONCE.get(type(statement))
    holder = getattr(statement, field, None) if field else None
    if holder is None or not any(n is call for n in ast.walk(holder)):
        return "the call is not in an expression its statement evaluates exactly once before anything else (a while or with, a target, a default)"
    if isinstance(statement, ast.If) and src.data.startswith(b"elif", src.span(statement)[0]):
        return "the call is in an elif condition, which runs only when the conditions before it are false"
    if any(isinstance(n, ast.JoinedStr) for n in _around(site)):
        return "the call is inside an f-string"
    if site.nested():
        return "the call is evaluated conditionally or in a nested scope (and/or, a conditional expression, a lambda or comprehension)"
    call_start = src.span(call)[0]
    before = [statement.target] if isinstance(statement, ast.AugAssign) else []
    before += _evaluated_before(holder, call, src, call_start)
    modules = _imported_modules(site.module.tree) - _locals(site.scope)
    for node in before:
        for part in ast.walk(node):
            if isinstance(part, ast.Attribute) and _module_attribute(part, modules):
                continue
            if isinstance(part, ast.Name) and not _stable(site, part.id):
                return "%s is read before the call in its statement and may be rebound by the body, now first (it is declared global or nonlocal)" % part.id
            if not isinstance(part, PLAIN):
                what = "calls something" if has_effects(part) else "reads what the body, now first, could change"
                return "%s is evaluated before the call in its statement and %s" % (_text(src, part), what)
    return None


def _around(site):
    node = site.call
    while node is not site.statement:
        node = site.parents[node]
        yield node


def _evaluated_before(holder, call, src, call_start):
    """The largest parts of the expression that end before the call begins and are not around it: what Python
    evaluates first (left to right; the conditional forms are refused before)."""
    found, stack = [], [holder]
    while stack:
        node = stack.pop()
        if node is call:
            continue
        if not hasattr(node, "lineno"):
            stack.extend(ast.iter_child_nodes(node))
            continue
        start, end = src.span(node)
        if end <= call_start:
            found.append(node)
        elif start <= call_start:
            stack.extend(ast.iter_child_nodes(node))
    return found


def _imported_modules(tree):
    """The names the module binds to modules with a top-level `import x` (`import a.b` binds a)."""
    return {(a.asname or a.name).split(".")[0] for s in tree.body if isinstance(s, ast.Import) for a in s.names}


def _locals(scope):
    stored = {n.id for n in own_nodes(scope) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    if not isinstance(scope, ast.Module):  # a module's own `import sys` is what makes sys a module
        stored |= {(a.asname or a.name).split(".")[0] for n in own_nodes(scope) if isinstance(n, ast.Import) for a in n.names}
    arguments = getattr(scope, "args", None)
    return stored | ({a.arg for a in ast.walk(arguments) if isinstance(a, ast.arg)} if arguments is not None else set())


def _module_attribute(node, modules):
    """`warnings.warn`, `os.path.join`: a read of what an imported module holds, which only code that sets the module's
    attribute could change (as only code that declares a name global could rebind it)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in modules


def _stable(site, name):
    """A name the body cannot rebind: a local of the calling function (the body's own names are refused where they
    clash) or a module name or builtin, unless some function of the module declares it global or nonlocal."""
    return not any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in ast.walk(site.module.tree))


def _text(src, node):
    text = src.slice(*src.span(node))
    return text if len(text) <= 40 else text[:37] + "..."
