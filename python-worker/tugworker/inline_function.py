# inline of a module-level function: every call the analysis resolved is replaced by the function's body with the
# arguments bound to its parameters, and the definition goes once nothing else refers to it. What cannot be shown
# to run the same (several returns, recursion, a generator, a name the caller binds otherwise) is refused as a whole.
import ast

from tugworker.local_edits import COMPREHENSIONS, Refused, has_effects, own_nodes
from tugworker.move_module import Module, drop_alias, import_line
from tugworker.move_symbol import _block, _removal

SIMPLE = (ast.Name, ast.Constant)
SCOPES_INSIDE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda) + COMPREHENSIONS
STATEMENT_VALUE = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)


def _refuse(module, node, reason, code="UnsafeRefactor"):
    line, col = node.lineno, node.col_offset + 1
    raise Refused(code, "cannot inline at %s:%d:%d: %s" % (module.path, line, col, reason), {"reason": reason, "path": module.path, "line": line, "col": col})


class Definition:
    """The function as inlining needs it: parameters, body, the value it returns, the names it reads and binds."""

    def __init__(self, module, offset):
        self.module = module
        src = module.src
        node = next((s for s in module.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and _name_span(src, s)[0] <= offset <= _name_span(src, s)[1]), None)
        if node is None:
            raise Refused("UnsupportedOperation", "%s: the position is not on a module-level function; inline takes a function's def or a call of it (methods and nested functions are not supported)" % module.path, {"operation": "inline", "reason": "not a module-level function"})
        self.node, self.name = node, node.name
        if isinstance(node, ast.AsyncFunctionDef):
            _refuse(module, node, "%s is async: its calls return a coroutine, not its body's value" % node.name)
        if node.decorator_list:
            _refuse(module, node, "%s is decorated: calls go through the decorator, which inlining would skip" % node.name)
        args = node.args
        if args.vararg or args.kwarg or args.posonlyargs:
            _refuse(module, node, "%s takes *args, **kwargs or positional-only parameters" % node.name, "UnsupportedOperation")
        own = list(own_nodes(node))
        for n in own:
            if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)):
                _refuse(module, n, "%s is a generator or awaits" % node.name)
            if isinstance(n, (ast.Global, ast.Nonlocal)):
                _refuse(module, n, "%s declares global or nonlocal names" % node.name)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("locals", "vars", "eval", "exec", "super"):
                _refuse(module, n, "%s calls %s()" % (node.name, n.func.id))
        if any(isinstance(n, ast.Name) and n.id == node.name for n in ast.walk(node)):
            _refuse(module, node, "%s is recursive (or refers to itself)" % node.name)
        self.params = [a.arg for a in args.args] + [a.arg for a in args.kwonlyargs]
        self.keyword_only = {a.arg for a in args.kwonlyargs}
        defaults = dict(zip([a.arg for a in args.args][len(args.args) - len(args.defaults) :], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        self.defaults = defaults
        body = node.body[1:] if _is_docstring(node.body[0]) else node.body
        if not body:
            _refuse(module, node, "%s has no body besides its docstring" % node.name)
        returns = [n for n in own if isinstance(n, ast.Return)]
        last = body[-1]
        if any(r is not last for r in returns):
            _refuse(module, returns[0] if returns[0] is not last else returns[-1], "%s returns from more than one place; inline needs one return, at the end" % node.name)
        self.value = last.value if isinstance(last, ast.Return) else None
        self.statements = body[:-1] if isinstance(last, ast.Return) else body
        self.expression = not self.statements
        stored = {n.id for n in own if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        stored |= {n.name for n in own if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        stored |= {(a.asname or a.name).split(".")[0] for n in own if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
        self.locals = stored - set(self.params)
        self.assigned_params = stored & set(self.params)
        reads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        self.globals = sorted(reads - set(self.params) - self.locals)
        for n in (n for statement in body for n in ast.walk(statement)):
            if isinstance(n, (ast.Constant, ast.JoinedStr)) and n.lineno != n.end_lineno and not self.expression:
                _refuse(module, n, "%s holds a string over several lines, which moving its body would re-indent" % node.name, "UnsupportedOperation")

    def uses(self, param):
        """Loads of a parameter in the body, outside nested scopes that rebind it."""
        return [n for n in ast.walk(self.node) if isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Load) and n is not self.node]


def _name_span(src, node):
    start = src.offset(node.lineno, node.col_offset)
    at = src.data.find(node.name.encode("utf-8"), start)
    return at, at + len(node.name.encode("utf-8"))


def _is_docstring(stmt):
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


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


def _bind(site, definition):
    """Each parameter's argument node (or its default's), in the order Python evaluates the arguments."""
    call, module = site.call, site.module
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        _refuse(module, call, "the call unpacks *args or **kwargs")
    positional = [p for p in definition.params if p not in definition.keyword_only]
    if len(call.args) > len(positional):
        _refuse(module, call, "the call passes more arguments than %s takes" % definition.name, "InvalidArgument")
    bound = dict(zip(positional, call.args))
    for keyword in call.keywords:
        if keyword.arg not in definition.params or keyword.arg in bound:
            _refuse(module, call, "the call passes %s, which %s does not take (or takes twice)" % (keyword.arg, definition.name), "InvalidArgument")
        bound[keyword.arg] = keyword.value
    order = [node for node in call.args] + [k.value for k in call.keywords]
    for param in definition.params:
        if param in bound:
            continue
        default = definition.defaults.get(param)
        if default is None:
            _refuse(module, call, "the call leaves out %s, which has no default" % param, "InvalidArgument")
        if not isinstance(default, ast.Constant) and not (isinstance(default, ast.UnaryOp) and isinstance(default.operand, ast.Constant)):
            _refuse(module, call, "%s's default is evaluated once, when %s is defined; inlined it would run at every call" % (param, definition.name))
    return bound, order


def _text(module, node):
    return module.src.slice(*module.src.span(node))


def _substitute(definition, node, replacements):
    """The node's text from the definition's file with parameter loads replaced (replacements: param -> text)."""
    dsrc = definition.module.src
    start, end = dsrc.span(node)
    cuts = sorted((dsrc.span(n), replacements[n.id]) for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in replacements)
    out, at = [], start
    for (s, e), text in cuts:
        out.append(dsrc.slice(at, s))
        out.append(text)
        at = e
    out.append(dsrc.slice(at, end))
    return "".join(out)


def _inline_expression(site, definition, bound, order):
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
            _refuse(module, site.call, "an argument names a variable the returned expression binds itself")
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


def _inline_statements(site, definition, bound):
    """The statement holding the call becomes: each parameter bound to its argument, the body, and the statement with
    the returned value in place of the call. The body's names become the caller's locals, so none may be in use."""
    module, statement = site.module, site.statement
    if not isinstance(statement, STATEMENT_VALUE) or statement.value is not site.call:
        _refuse(module, site.call, "the call is inside a larger expression and %s's body has statements; inline needs the call as a whole statement, assignment or return" % definition.name)
    if not isinstance(site.scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        _refuse(module, site.call, "the call is not in a function: the body's names would become module or class attributes")
    indent = module.src.indentation_before(statement)
    if indent is None:
        _refuse(module, statement, "the statement shares its line with other code")
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
    clash = sorted(introduced & site.scope_names)
    if clash:
        _refuse(module, site.call, "%s already means something where the call is; the body would rebind it" % ", ".join(clash), "NameConflict")
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
    if isinstance(statement, ast.Expr):
        if value is not None and has_effects(value):
            lines.append(indent + _substitute(definition, value, replacements))
    else:
        returned = "None" if value is None else _parenthesized(_substitute(definition, value, replacements), value)
        lines.append(indent + module.src.slice(start, call_start) + returned + module.src.slice(call_end, end))
    line_start = module.src.line_start(start)
    return module.edit(line_start, end, "\n".join(lines))


def inline_function(request):
    files = {f["path"]: f for f in request["files"]}
    definition = Definition(Module(files[request["source"]]), request["offset"])
    name = definition.name
    keep = bool(request.get("keep_definition"))
    edits, warnings, imports_to_drop, kept_because = [], [], [], []
    calls = 0
    for entry in request["files"]:
        module = Module(entry)
        needed = []
        for occurrence in entry["occurrences"]:
            offset, kind = occurrence["offset"], occurrence["kind"]
            if kind == "definition":
                continue
            node = _node_at(module, offset)
            if kind == "import":
                if module.path.rsplit("/", 1)[-1] == "__init__.py":
                    kept_because.append("%s re-exports it" % module.path)
                imports_to_drop.append((module, node))
                continue
            if kind == "all":
                kept_because.append("%s lists it in __all__" % module.path)
                continue
            call = _call_of(module, node)
            if call is None:
                line, col = module.src.position(offset)
                kept_because.append("%s:%d:%d refers to it without calling it" % (module.path, line, col))
                continue
            site = Site(module, call)
            bound, order = _bind(site, definition)
            _check_globals(site, definition, needed)
            replacement = _inline_expression(site, definition, bound, order) if definition.expression else None
            if replacement is not None:
                if replacement.startswith("(") and _whole_value(site):
                    replacement = replacement[1:-1] if _balanced(replacement[1:-1]) else replacement
                edits.append(module.edit(*module.src.span(call), replacement))
            elif site.nested():
                _refuse(module, call, "the call is evaluated conditionally or in a nested scope, and its arguments need binding first")
            else:
                edits.append(_inline_statements(site, definition, bound))
            calls += 1
        for line in sorted(set(needed)):
            edits.append(module.insert_import(line))
    if calls == 0:
        raise Refused("SymbolNotFound", "%s has no calls tug can see; there is nothing to inline" % name, {"reason": "no calls"})
    remove = not keep and not kept_because
    if remove:
        src = definition.module.src
        start, end = _block(src, definition.node)
        cut = _removal(src, start, end)
        edits.append(definition.module.edit(cut[0], cut[1], ""))
        edits.extend(definition.module.drop_from_all(name))
        # Every other reference was a call, now inlined: the imports of the name have nothing left to import.
        for module, node in imports_to_drop:
            statement = next((s for s in ast.walk(module.tree) if isinstance(s, ast.ImportFrom) and node in list(ast.walk(s))), None)
            if statement is not None:
                edits.extend(drop_alias(module, statement, _imported_as(statement, node), None))
    elif kept_because and not keep:
        warnings.append({"code": "DefinitionKept", "message": "%s stays defined: %s" % (name, "; ".join(sorted(set(kept_because))))})
    return {"edits": sorted(edits, key=lambda e: (e["path"], e["span"])), "name": name, "calls": calls, "removed": remove, "warnings": warnings}


def _whole_value(site):
    """Where the call's value stands alone, so the inlined expression needs no parentheses of its own."""
    parent = site.parents.get(site.call)
    if isinstance(parent, STATEMENT_VALUE) and getattr(parent, "value", None) is site.call and not isinstance(parent, ast.AugAssign):
        return True
    if isinstance(parent, ast.Call) and site.call in parent.args:
        return True
    if isinstance(parent, ast.keyword) or isinstance(parent, (ast.List, ast.Tuple, ast.Set)):
        return True
    return False


def _balanced(text):
    """Whether the parentheses of a text pair up on their own (so the outer pair can go)."""
    depth = 0
    for char in text:
        depth += char == "("
        depth -= char == ")"
        if depth < 0:
            return False
    return depth == 0 and "\n" not in text


def _imported_as(statement, node):
    alias = next((a for a in statement.names if node is a or node in list(ast.walk(a))), None)
    return alias.name if alias is not None else None


def _node_at(module, offset):
    best = None
    for node in ast.walk(module.tree):
        if isinstance(node, (ast.Name, ast.Attribute, ast.alias)) and hasattr(node, "lineno"):
            start, end = module.src.span(node)
            if start <= offset < end and (best is None or module.src.span(best)[1] - module.src.span(best)[0] >= end - start):
                best = node
    return best


def _call_of(module, node):
    """The Call whose function is this name (or attribute ending in it), if the occurrence is called."""
    if node is None:
        return None
    for candidate in ast.walk(module.tree):
        if isinstance(candidate, ast.Call):
            func = candidate.func
            if func is node or (isinstance(func, ast.Attribute) and (func is node or func.value is node)):
                return candidate
            if isinstance(node, ast.Attribute) and func is node:
                return candidate
    return None


def _check_globals(site, definition, needed):
    """The body's other names must mean at the call what they meant in the function's module: the same module (and
    no local of the caller shadowing them), or imports the caller gets."""
    module, dmodule = site.module, definition.module
    same = module.path == dmodule.path
    for name in definition.globals:
        if name in site.scope_names and not isinstance(site.scope, ast.Module):
            arguments = site.scope.args if isinstance(site.scope, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
            local_binds = any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) for n in own_nodes(site.scope)) or (
                arguments is not None and name in {a.arg for a in ast.walk(arguments) if isinstance(a, ast.arg)}
            )
            if local_binds:
                _refuse(module, site.call, "%s, which %s reads, is a local of the calling function" % (name, definition.name), "NameConflict")
        if same:
            continue
        origin = dmodule.import_origin(name)
        if origin is None and (name in dmodule.top_bindings or name in dmodule.block_bindings):
            origin = ("from", dmodule.name, [(name, None)])
        if origin is None:
            if name in module.top_bindings:
                _refuse(module, site.call, "%s, which %s reads as a builtin, means something else in %s" % (name, definition.name, module.path), "NameConflict")
            continue
        mine = module.import_origin(name)
        if mine == origin:
            continue
        if mine is not None or name in module.top_bindings or name in module.block_bindings:
            _refuse(module, site.call, "%s, which %s reads, means something else in %s" % (name, definition.name, module.path), "NameConflict")
        needed.append(import_line(origin))
