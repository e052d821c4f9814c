# Which imports a module reads, as ruff's F401 decides it, where that is certain. Names are resolved scope by scope
# the way ruff resolves them (a function's body once the module is done, everything else in order); whatever would
# need more of ruff's rules (`global`, `del`, a name read before it is bound, a string that may be code) is
# "unsupported", and ruff's own F401 runs instead.
import ast
import re

from tugworker.import_block import Unsupported

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError"}
# Pattern matching came with Python 3.10; the worker may run an older interpreter.
MATCH_CAPTURES = tuple(getattr(ast, name) for name in ("MatchAs", "MatchStar") if hasattr(ast, name))
MATCH_MAPPING = getattr(ast, "MatchMapping", ())
MATCH_CASE = getattr(ast, "match_case", ())
ANNOTATION, MAYBE = "annotation", "maybe"


def binding_name(node, alias):
    if alias.asname is not None:
        return alias.asname
    return alias.name.split(".")[0] if isinstance(node, ast.Import) else alias.name


class _Scope:
    def __init__(self, node, parent):
        self.node, self.parent = node, parent
        self.kind = "function" if isinstance(node, FUNCTIONS) else "class" if isinstance(node, ast.ClassDef) else "comprehension" if isinstance(node, COMPREHENSIONS) else "module"
        self.bindings = {}  # name -> [position, ...]
        self.loads = {}  # name -> [position, ...]
        self.late = set()  # names read by string annotations, which ruff resolves once the module is done


class _Walker:
    """Every binding and read of the interesting names, by scope; import bindings with the try that guards them."""

    def __init__(self, names):
        self.names = names
        self.imports = []  # (name, scope, position, statement, alias, guarded)
        self.scopes = []
        self.guarded = False
        self.in_string = False

    def scope(self, node, parent):
        scope = _Scope(node, parent)
        self.scopes.append(scope)
        return scope

    def bind(self, scope, name, position):
        if name in self.names:
            scope.bindings.setdefault(name, []).append(position)

    def run(self, tree):
        module = self.scope(tree, None)
        self.body(tree.body, module, False)
        return module

    def body(self, statements, scope, guarded):
        outer, self.guarded = self.guarded, guarded
        try:
            for statement in statements:
                self.statement(statement, scope)
        finally:
            self.guarded = outer

    def statement(self, node, scope):
        # Inside a try whose handlers catch ImportError (as the body that holds the statement says).
        guarded = self.guarded
        where = (node.lineno, node.col_offset)
        if getattr(node, "type_params", None) or isinstance(node, getattr(ast, "TypeAlias", ())):
            raise Unsupported("type parameters")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*" or (isinstance(node, ast.ImportFrom) and node.module == "__future__" and not node.level):
                    continue
                name = binding_name(node, alias)
                if alias.asname is not None and alias.asname == alias.name:
                    raise Unsupported("an explicit re-export (`import x as x`)")
                self.bind(scope, name, where)
                self.imports.append((name, scope, where, node, alias, guarded))
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for expr in node.decorator_list:
                self.expr(expr, scope)
            inner = self.scope(node, scope)
            if isinstance(node, ast.ClassDef):
                for expr in node.bases + [k.value for k in node.keywords]:
                    self.expr(expr, scope)
            else:
                self.arguments(node.args, scope, inner)
                if node.returns is not None:
                    self.annotation(node.returns, scope)
            self.bind(scope, node.name, where)
            # A try around a definition does not guard the imports inside it (ruff visits bodies later).
            self.body(node.body, inner, False)
            return
        if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            caught = any(_catches_import_error(handler) for handler in node.handlers)
            self.body(node.body, scope, guarded or caught)
            for handler in node.handlers:
                if handler.type is not None:
                    self.expr(handler.type, scope)
                if handler.name in self.names:
                    raise Unsupported("an imported name bound by `except ... as`")
                self.body(handler.body, scope, guarded)
            self.body(node.orelse, scope, guarded)
            self.body(node.finalbody, scope, guarded)
            return
        if isinstance(node, (ast.Global, ast.Nonlocal)) and self.names & set(node.names):
            raise Unsupported("`global` or `nonlocal` of an imported name")
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id in self.names:
            raise Unsupported("an imported name annotated again")
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id in self.names:
            raise Unsupported("an imported name updated in place")
        if isinstance(node, ast.AnnAssign):
            self.annotation(node.annotation, scope)
            for child in (node.value, node.target):
                if child is not None:
                    self.expr(child, scope, ANNOTATION if node.value is child and _is_type_alias(node) else None)
            return
        for field, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                self.body(value, scope, guarded)
            elif isinstance(value, list):
                for item in value:
                    self.child(item, scope)
            else:
                self.child(value, scope)

    def child(self, node, scope):
        if isinstance(node, ast.expr):
            self.expr(node, scope)
        elif isinstance(node, ast.AST):
            # with-items, match cases and patterns, keywords, comprehensions at statement level
            if isinstance(node, MATCH_CAPTURES) and node.name:
                self.bind(scope, node.name, (node.lineno, node.col_offset))
            if isinstance(node, MATCH_MAPPING) and node.rest:
                self.bind(scope, node.rest, (node.lineno, node.col_offset))
            if isinstance(node, MATCH_CASE):
                self.child(node.pattern, scope)
                if node.guard is not None:
                    self.expr(node.guard, scope)
                self.body(node.body, scope, self.guarded)
                return
            for _, value in ast.iter_fields(node):
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, ast.stmt):
                        self.statement(item, scope)
                    else:
                        self.child(item, scope)

    def arguments(self, args, outer, inner):
        for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self.expr(default, outer)
        every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
        for arg in every:
            if arg.annotation is not None:
                self.annotation(arg.annotation, outer)
            self.bind(inner, arg.arg, (arg.lineno, arg.col_offset))

    def annotation(self, node, scope):
        self.expr(node, scope, ANNOTATION)

    def expr(self, node, scope, mode=None):
        """`mode`: ANNOTATION where strings are types ruff reads, MAYBE where they might be (typing's calls and
        subscripts outside annotations: a name in one is unsupported), None for plain values."""
        if isinstance(node, ast.Name):
            if node.id in self.names:
                if isinstance(node.ctx, ast.Load):
                    if self.in_string:
                        scope.late.add(node.id)
                    else:
                        scope.loads.setdefault(node.id, []).append((node.lineno, node.col_offset))
                elif isinstance(node.ctx, ast.Del):
                    raise Unsupported("`del` of an imported name")
                else:
                    self.bind(scope, node.id, (node.lineno, node.col_offset))
            return
        if isinstance(node, ast.Lambda):
            inner = self.scope(node, scope)
            self.arguments(node.args, scope, inner)
            self.expr(node.body, inner)
            return
        if isinstance(node, COMPREHENSIONS):
            inner = self.scope(node, scope)
            for index, generator in enumerate(node.generators):
                self.expr(generator.iter, scope if index == 0 else inner)
                self.expr(generator.target, inner)
                for condition in generator.ifs:
                    self.expr(condition, inner)
            for part in (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,):
                self.expr(part, inner)
            return
        if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name) and node.target.id in self.names:
            raise Unsupported("an imported name bound by `:=`")
        if mode == ANNOTATION and isinstance(node, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)):
            # ruff parses for the newest Python, where these are syntax errors in an annotation.
            raise Unsupported("`:=`, `yield` or `await` in an annotation")
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = self.names & set(WORD.findall(node.value))
            if words and mode == MAYBE:
                raise Unsupported("an imported name inside a string that may be a type")
            if words and mode == ANNOTATION:
                self.string_annotation(node.value, scope)
            return
        if isinstance(node, ast.Subscript):
            self.expr(node.value, scope, mode)
            kind = _last_name(node.value)
            if mode == ANNOTATION and kind == "Literal":
                return self.expr(node.slice, scope, None)
            if mode == ANNOTATION and kind == "Annotated" and isinstance(node.slice, ast.Tuple) and node.slice.elts:
                self.expr(node.slice.elts[0], scope, ANNOTATION)
                for extra in node.slice.elts[1:]:
                    self.expr(extra, scope, MAYBE)
                return
            return self.expr(node.slice, scope, mode if mode == ANNOTATION else MAYBE if mode == MAYBE or _generic(node.value) else None)
        if isinstance(node, ast.Call):
            # Strings in typing's calls may be types (`cast("T", x)`, `TypeVar("T", bound="B")`).
            inner = MAYBE if mode is not None or _typing_call(node.func) else None
            self.expr(node.func, scope, mode)
            for child in node.args + [k.value for k in node.keywords]:
                self.expr(child, scope, inner)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child, scope, mode)
            elif isinstance(child, ast.keyword):
                self.expr(child.value, scope, mode)
            else:
                self.child(child, scope)

    def string_annotation(self, text, scope):
        """A string annotation, read as ruff reads it: as an expression, its names resolved once the module is done."""
        try:
            parsed = ast.parse(text, mode="eval")
        except SyntaxError:
            raise Unsupported("a string annotation that does not parse")
        outer, self.in_string = self.in_string, True
        try:
            self.expr(parsed.body, scope, ANNOTATION)
        finally:
            self.in_string = outer


TYPING_CALLS = {"cast", "TypeVar", "NewType", "NamedTuple", "TypedDict", "ParamSpec", "TypeVarTuple", "TypeAliasType", "Annotated"}


GENERICS = {"list", "dict", "set", "frozenset", "tuple", "type"}


def _last_name(node):
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None


def _typing_call(func):
    return _last_name(func) in TYPING_CALLS


def _generic(value):
    """Whether a subscript may be a generic type (`List[...]`, `dict[...]`), not an item lookup (`data["x"]`)."""
    name = _last_name(value)
    return name is None or name[:1].isupper() or name in GENERICS


def _catches_import_error(handler):
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, ast.Name) and t.id in IMPORT_ERRORS for t in types)


def _is_type_alias(node):
    return _last_name(node.annotation) == "TypeAlias"


def _exports(tree, dunder_all):
    """`__all__` given as literal lists of strings at the top level (assigned or added to): its names."""
    names, spelled = set(), set()
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else getattr(node, "target", None)
        if not isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) or not isinstance(target, ast.Name) or target.id != "__all__":
            continue
        spelled.add(id(target))
        if isinstance(node, ast.AugAssign) and not isinstance(node.op, ast.Add):
            raise Unsupported("`__all__` built other than from literal lists")
        value = node.value
        if not (isinstance(value, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts)):
            raise Unsupported("`__all__` built other than from literal lists")
        names.update(e.value for e in value.elts)
    for node in dunder_all:
        if isinstance(node, ast.Attribute):
            raise Unsupported("`__all__` changed by a method call")
        if isinstance(node, ast.Name) and node.id == "__all__" and not isinstance(node.ctx, ast.Load) and id(node) not in spelled:
            raise Unsupported("`__all__` assigned inside a block")
    return names


def _path(scope, up_to):
    """The scopes from `scope` out to `up_to` (exclusive), or None when `up_to` does not enclose it."""
    path = []
    while scope is not None and scope is not up_to:
        path.append(scope)
        scope = scope.parent
    return path if scope is up_to else None


def unused_imports(tree, statements, dunder_all):
    """(statement, alias) pairs F401 would remove: imports nothing reads, that are the last binding of their name.

    `statements` are the tree's import statements, `dunder_all` its nodes that name `__all__`."""
    names = set()
    for node in statements:
        names.update(binding_name(node, alias) for alias in node.names if alias.name != "*")
    if not names:
        return []
    walker = _Walker(names)
    module = walker.run(tree)
    exports = _exports(tree, dunder_all)
    unused = []
    for name, scope, where, statement, alias, guarded in walker.imports:
        later = [p for p in scope.bindings.get(name, []) if p > where]
        # ruff checks only a name's last binding in its scope; an import shadowed later is left alone.
        if later:
            continue
        if scope.kind == "class":
            raise Unsupported("an import in a class body")
        if _is_read(walker, name, scope, where) or (scope is module and name in exports):
            continue
        if guarded:
            # ruff reports an unused import guarded by `except ImportError` without a fix.
            continue
        if isinstance(statement, ast.Import) and alias.asname is None and "." in alias.name:
            # `import a.b` binds `a`, and ruff counts uses of `a.b` through other imports of `a` as its own.
            raise Unsupported("an unused submodule import")
        unused.append((statement, alias))
    return unused


def _is_read(walker, name, home, where):
    """Whether a read of `name` resolves to the binding at `where` in `home` (its last binding there)."""
    read = False
    for scope in walker.scopes:
        loads = scope.loads.get(name, [])
        late = name in scope.late
        if not loads and not late:
            continue
        if scope is home:
            if any(p < where for p in loads):
                raise Unsupported("a name read before its import")
            read = True
            continue
        path = _path(scope, home)
        if path is None:
            continue
        # A class's names are not seen from the scopes inside it; a scope binding the name has its own.
        own = [inner for inner in path if name in inner.bindings and (inner.kind != "class" or inner is scope)]
        if own:
            if own[0] is scope and (scope.kind == "comprehension" or not loads):
                continue
            if own[0] is scope:
                if any(p < min(scope.bindings[name]) for p in loads):
                    raise Unsupported("a name read in a scope before that scope binds it")
                continue
            # Another scope on the way binds it: the read is that scope's once a function lies between them.
            if loads and not any(inner.kind == "function" for inner in path[: path.index(own[0])]):
                raise Unsupported("a name bound in an enclosing scope and read around it")
            continue
        # ruff reads a function's body after the module: from there any binding of the scope is seen.
        deferred = any(inner.kind == "function" for inner in path)
        if not deferred and any(p < where for p in loads):
            raise Unsupported("a name read before its import")
        read = True
    return read
