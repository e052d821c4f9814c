# inline of a function at one call: the arguments bound to the parameters, and the call replaced by the returned
# expression or, where the call is a whole statement, by the body. Refusals name the call site.
import ast

from tugworker.inline_hoist import hoist_refusal
from tugworker.local_edits import COMPREHENSIONS, Refused, has_effects, own_nodes

SIMPLE = (ast.Name, ast.Constant)
SCOPES_INSIDE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda) + COMPREHENSIONS
STATEMENT_VALUE = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)


def refuse(module, node, reason, code="UnsafeRefactor"):
    line, col = node.lineno, node.col_offset + 1
    raise Refused(code, "cannot inline at %s:%d:%d: %s" % (module.path, line, col, reason), {"reason": reason, "path": module.path, "line": line, "col": col})


def _parenthesized(text, node):
    return text if isinstance(node, (ast.Name, ast.Constant, ast.Call, ast.Attribute, ast.Subscript, ast.List, ast.Tuple, ast.Dict, ast.Set)) and "\n" not in text else "(%s)" % text


class Site:
    """One call: the module it is in, the Call node, the statement holding it and the names its scope uses."""

    def __init__(self, module, call):
        self.module, self.call = module, call
        src = module.src
        parents = {}
        for node in ast.walk(module.tree):
            for child in ast.iter_child_nodes(node):
                parents[child] = node
        self.parents = parents
        node = call
        while node in parents and not isinstance(node, ast.stmt):
            node = parents[node]
        self.statement = node
        scope = parents.get(node)
        while scope is not None and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            scope = parents.get(scope)
        self.scope = scope
        self.scope_names = _names(scope)
        self.src = src

    def nested(self):
        """Whether the call sits under a lambda, comprehension, conditional expression or short-circuit operand."""
        node = self.call
        while node is not self.statement:
            parent = self.parents[node]
            if isinstance(parent, (ast.Lambda, ast.IfExp, ast.BoolOp) + COMPREHENSIONS) or isinstance(parent, ast.comprehension):
                return True
            node = parent
        return False


def _names(scope):
    found = set()
    for node in own_nodes(scope) if not isinstance(scope, ast.Module) else ast.walk(scope):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.alias):
            found.add((node.asname or node.name).split(".")[0])
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        found |= {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)}
    return found


def bind_arguments(site, definition):
    """Each parameter's argument node (or its default's), in the order Python evaluates the arguments."""
    call, module = site.call, site.module
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        refuse(module, call, "the call unpacks *args or **kwargs")
    positional = [p for p in definition.params if p not in definition.keyword_only]
    if len(call.args) > len(positional):
        refuse(module, call, "the call passes more arguments than %s takes" % definition.name, "InvalidArgument")
    bound = dict(zip(positional, call.args))
    for keyword in call.keywords:
        if keyword.arg not in definition.params or keyword.arg in bound:
            refuse(module, call, "the call passes %s, which %s does not take (or takes twice)" % (keyword.arg, definition.name), "InvalidArgument")
        bound[keyword.arg] = keyword.value
    order = [node for node in call.args] + [k.value for k in call.keywords]
    for param in definition.params:
        if param in bound:
            continue
        default = definition.defaults.get(param)
        if default is None:
            refuse(module, call, "the call leaves out %s, which has no default" % param, "InvalidArgument")
        if not isinstance(default, ast.Constant) and not (isinstance(default, ast.UnaryOp) and isinstance(default.operand, ast.Constant)):
            refuse(module, call, "%s's default is evaluated once, when %s is defined; inlined it would run at every call" % (param, definition.name))
    return bound, order


def _text(module, node):
    return module.src.slice(*module.src.span(node))


def _substitute(definition, node, replacements):
    """The node's text from the definition's file with parameter loads replaced (replacements: param -> text)."""
    dsrc = definition.module.src
    return _replaced(dsrc, *dsrc.span(node), [node], replacements)


def inline_expression(site, definition, bound, order):
    """The call becomes the returned expression with the arguments in place of the parameters, or None when that
    would evaluate an argument a different number of times or in another order."""
    module = site.module
    value = definition.value
    if value is None:
        return "None" if all(not has_effects(a) for a in bound.values()) else None
    replacements = {}
    effect_positions = []
    for param in definition.params:
        arg = bound.get(param)
        text = _text(module, arg) if arg is not None else _text(definition.module, definition.defaults[param])
        node = arg if arg is not None else definition.defaults[param]
        uses = definition.uses(param)
        if not isinstance(node, SIMPLE):
            conditional = any(_conditional(definition, use) for use in uses)
            if len(uses) != 1 or conditional:
                return None
            if has_effects(node):
                effect_positions.append((definition.module.src.span(uses[0])[0], order.index(node) if node in order else -1))
        replacements[param] = _parenthesized(text, node)
    if effect_positions:
        # Effects of the arguments keep their order, and nothing in the body that calls runs before the first of them.
        if [p for _, p in sorted(effect_positions)] != sorted(p for _, p in effect_positions):
            return None
        first = min(pos for pos, _ in effect_positions)
        if any(has_effects(n) and definition.module.src.span(n)[1] <= first for n in ast.walk(value) if isinstance(n, ast.Call)):
            return None
    bound_inside = {n.id for n in ast.walk(value) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    bound_inside |= {a.arg for n in ast.walk(value) if isinstance(n, ast.Lambda) for a in ast.walk(n.args) if isinstance(a, ast.arg)}
    for param, text in replacements.items():
        arg = bound.get(param)
        if arg is not None and {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)} & bound_inside:
            refuse(module, site.call, "an argument names a variable the returned expression binds itself")
    return _parenthesized(_substitute(definition, value, replacements), value)


def _replaced(src, start, end, nodes, replacements):
    """The bytes start..end of src with the parameter loads in `nodes` replaced (replacements: param -> text)."""
    cuts = sorted((src.span(n), replacements[n.id]) for root in nodes for n in ast.walk(root) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in replacements)
    out, at = [], start
    for (s, e), text in cuts:
        out.append(src.slice(at, s))
        out.append(text)
        at = e
    out.append(src.slice(at, end))
    return "".join(out)


def _conditional(definition, use):
    parents = {}
    for node in ast.walk(definition.node):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    node = use
    while node in parents and not isinstance(node, ast.stmt):
        parent = parents[node]
        if isinstance(parent, (ast.Lambda, ast.IfExp) + COMPREHENSIONS) or isinstance(parent, ast.comprehension):
            return True
        if isinstance(parent, ast.BoolOp) and node is not parent.values[0]:
            return True
        node = parent
    return False


def inline_statements(site, definition, bound):
    """The statement holding the call becomes: each parameter bound to its argument, the body, and the statement with
    the returned value in place of the call. The body's names become the caller's locals, so none may be in use."""
    module, statement = site.module, site.statement
    whole = isinstance(statement, STATEMENT_VALUE) and statement.value is site.call
    reason = None if whole else hoist_refusal(site)
    if reason is not None:
        refuse(module, site.call, "%s's body has statements, which would go before the statement: %s" % (definition.name, reason))
    if not isinstance(site.scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _under_main_guard(site):
        refuse(module, site.call, "the call is not in a function: the body's names would become module or class attributes")
    indent = module.src.indentation_before(statement)
    if indent is None:
        refuse(module, statement, "the statement shares its line with other code")
    lines, introduced, replacements = [], set(definition.locals), {}
    in_nested = {n.id for scope in ast.walk(definition.node) if scope is not definition.node and isinstance(scope, SCOPES_INSIDE) for n in ast.walk(scope) if isinstance(n, ast.Name)}
    for param in definition.params:
        arg = bound.get(param)
        node = arg if arg is not None else definition.defaults[param]
        text = _text(module, arg) if arg is not None else _text(definition.module, node)
        if isinstance(node, ast.Name) and node.id == param and param not in definition.assigned_params:
            continue
        # A name or constant the body only reads goes in place of the parameter; anything else is bound to it first.
        if isinstance(node, SIMPLE) and param not in definition.assigned_params and param not in in_nested and not (isinstance(node, ast.Name) and node.id in definition.locals):
            replacements[param] = text
            continue
        lines.append("%s%s = %s" % (indent, param, text))
        introduced.add(param)
    names = site.scope_names
    if isinstance(site.scope, ast.Module) and definition.module.path == module.path:
        # The function's own locals are no module name: only what the module holds outside the def can clash.
        own = (definition.node.lineno, definition.node.col_offset)
        names = _names(ast.Module(body=[s for s in site.scope.body if (s.lineno, s.col_offset) != own], type_ignores=[]))
    clash = sorted(introduced & names)
    if clash:
        refuse(module, site.call, "%s already means something where the call is; the body would rebind it" % ", ".join(clash), "NameConflict")
    dsrc = definition.module.src
    if definition.statements:
        first, last = definition.statements[0], definition.statements[-1]
        body_indent = dsrc.indentation_before(first) or ""
        chunk = _replaced(dsrc, dsrc.starts[first.lineno - 1], dsrc.offset(last.end_lineno, last.end_col_offset), definition.statements, replacements)
        for line in chunk.split("\n"):
            if not line.strip():
                lines.append("")
            else:
                lines.append(indent + line[len(body_indent) :] if line.startswith(body_indent) else line)
    value = definition.value
    start, end = module.src.span(statement)
    call_start, call_end = module.src.span(site.call)
    if whole and isinstance(statement, ast.Expr):
        if value is not None and has_effects(value):
            lines.append(indent + _substitute(definition, value, replacements))
    else:
        returned = "None" if value is None else _parenthesized(_substitute(definition, value, replacements), value)
        lines.append(indent + module.src.slice(start, call_start) + returned + module.src.slice(call_end, end))
    line_start = module.src.line_start(start)
    return module.edit(line_start, end, "\n".join(lines))


def _under_main_guard(site):
    """A module-level statement under `if __name__ == "__main__":`, which runs only as a script: there the body's names
    become globals of `__main__`, which nothing imports, and the clash check keeps them from meeting any name of the
    module."""
    node = site.statement
    while node in site.parents and not isinstance(site.parents[node], ast.Module):
        node = site.parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return False
    if not isinstance(node, ast.If) or not any(site.statement is n for stmt in node.body for n in ast.walk(stmt)):
        return False
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    return any(isinstance(a, ast.Name) and a.id == "__name__" for a in sides) and any(isinstance(a, ast.Constant) and a.value == "__main__" for a in sides)


def whole_value(site):
    """Where the call's value stands alone, so the inlined expression needs no parentheses of its own."""
    parent = site.parents.get(site.call)
    if isinstance(parent, STATEMENT_VALUE) and getattr(parent, "value", None) is site.call and not isinstance(parent, ast.AugAssign):
        return True
    if isinstance(parent, ast.Call) and site.call in parent.args:
        return True
    if isinstance(parent, ast.keyword) or isinstance(parent, (ast.List, ast.Tuple, ast.Set)):
        return True
    return False


def balanced(text):
    """Whether the parentheses of a text pair up on their own (so the outer pair can go)."""
    depth = 0
    for char in text:
        depth += char == "("
        depth -= char == ")"
        if depth < 0:
            return False
    return depth == 0 and "\n" not in text
