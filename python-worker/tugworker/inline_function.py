# inline of a module-level function: every call the analysis resolved is replaced by the function's body with the
# arguments bound to its parameters (inline_calls.py), and the definition goes once nothing else refers to it. What
# cannot be shown to run the same (several returns, recursion, a generator, a name the caller binds otherwise) is
# refused as a whole.
import ast

from tugworker.inline_calls import Site, balanced, bind_arguments, inline_expression, inline_statements, refuse, whole_value
from tugworker.fstrings import fit, target_version
from tugworker.local_edits import Refused, own_nodes
from tugworker.move_module import Module, drop_alias, import_line
from tugworker.move_symbol import _block, _removal


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
            refuse(module, node, "%s is async: its calls return a coroutine, not its body's value" % node.name)
        if node.decorator_list:
            refuse(module, node, "%s is decorated: calls go through the decorator, which inlining would skip" % node.name)
        args = node.args
        if args.vararg or args.kwarg or args.posonlyargs:
            refuse(module, node, "%s takes *args, **kwargs or positional-only parameters" % node.name, "UnsupportedOperation")
        own = list(own_nodes(node))
        for n in own:
            if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)):
                refuse(module, n, "%s is a generator or awaits" % node.name)
            if isinstance(n, (ast.Global, ast.Nonlocal)):
                refuse(module, n, "%s declares global or nonlocal names" % node.name)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("locals", "vars", "eval", "exec", "super"):
                refuse(module, n, "%s calls %s()" % (node.name, n.func.id))
        if any(isinstance(n, ast.Name) and n.id == node.name for n in ast.walk(node)):
            refuse(module, node, "%s is recursive (or refers to itself)" % node.name)
        self.params = [a.arg for a in args.args] + [a.arg for a in args.kwonlyargs]
        self.keyword_only = {a.arg for a in args.kwonlyargs}
        defaults = dict(zip([a.arg for a in args.args][len(args.args) - len(args.defaults) :], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        self.defaults = defaults
        body = node.body[1:] if _is_docstring(node.body[0]) else node.body
        if not body:
            refuse(module, node, "%s has no body besides its docstring" % node.name)
        returns = [n for n in own if isinstance(n, ast.Return)]
        last = body[-1]
        if any(r is not last for r in returns):
            refuse(module, returns[0] if returns[0] is not last else returns[-1], "%s returns from more than one place; inline needs one return, at the end" % node.name)
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
                refuse(module, n, "%s holds a string over several lines, which moving its body would re-indent" % node.name, "UnsupportedOperation")

    def uses(self, param):
        """Loads of a parameter in the body, outside nested scopes that rebind it."""
        return [n for n in ast.walk(self.node) if isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Load) and n is not self.node]


def _name_span(src, node):
    start = src.offset(node.lineno, node.col_offset)
    at = src.data.find(node.name.encode("utf-8"), start)
    return at, at + len(node.name.encode("utf-8"))


def _is_docstring(stmt):
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def inline_function(request):
    files = {f["path"]: f for f in request["files"]}
    definition = Definition(Module(files[request["source"]]), request["offset"])
    name = definition.name
    keep = bool(request.get("keep_definition"))
    target = target_version(request.get("target_python"))
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
            bound, order = bind_arguments(site, definition)
            _check_globals(site, definition, needed)
            replacement = inline_expression(site, definition, bound, order) if definition.expression else None
            if replacement is not None:
                if replacement.startswith("(") and whole_value(site):
                    replacement = replacement[1:-1] if balanced(replacement[1:-1]) else replacement
                start, end = module.src.span(call)
                line, col = module.src.position(start)
                replacement = fit(module.tree, module.src.data, module.src.offset, start, end, replacement, target, "%s:%d:%d" % (module.path, line, col))
                edits.append(module.edit(start, end, replacement))
            elif site.nested():
                refuse(module, call, "the call is evaluated conditionally or in a nested scope, and its arguments need binding first")
            else:
                edits.append(inline_statements(site, definition, bound))
            calls += 1
        for line in sorted(set(needed)):
            edits.append(module.insert_import(line))
    _refuse_overlaps(edits, name)
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


def _refuse_overlaps(edits, name):
    """Two calls in one statement (`f(a) + f(b)`, `f(f(a))`) cannot both take the statement's place."""
    ordered = sorted(edits, key=lambda e: (e["path"], e["span"]))
    for first, second in zip(ordered, ordered[1:]):
        if first["path"] == second["path"] and second["span"][0] < first["span"][1]:
            raise Refused("UnsafeRefactor", "cannot inline %s: two of its calls are in one statement of %s, and each would need the statement to itself" % (name, first["path"]), {"reason": "two calls in one statement", "path": first["path"]})


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
                refuse(module, site.call, "%s, which %s reads, is a local of the calling function" % (name, definition.name), "NameConflict")
        if same:
            continue
        origin = dmodule.import_origin(name)
        if origin is None and (name in dmodule.top_bindings or name in dmodule.block_bindings):
            origin = ("from", dmodule.name, [(name, None)])
        if origin is None:
            if name in module.top_bindings:
                refuse(module, site.call, "%s, which %s reads as a builtin, means something else in %s" % (name, definition.name, module.path), "NameConflict")
            continue
        mine = module.import_origin(name)
        if mine == origin:
            continue
        if mine is not None or name in module.top_bindings or name in module.block_bindings:
            refuse(module, site.call, "%s, which %s reads, means something else in %s" % (name, definition.name, module.path), "NameConflict")
        needed.append(import_line(origin))
