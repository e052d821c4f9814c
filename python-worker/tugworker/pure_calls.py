# The calls inline may repeat at each use of a variable (issue 28: rope duplicates any call, and 23 of its results
# broke). A small allowlist of calls that give the same immutable value each time and do nothing else, so the value
# `path = match.group('path')` used twice can be written twice. Never a user function: tug cannot see what one does.
import ast

# Builtins that only read their arguments (through the conventionally pure __len__, __str__, __int__, …).
PURE_BUILTINS = {"len", "isinstance", "issubclass", "str", "int", "float", "bool", "abs", "repr", "ord", "chr", "type"}
# Builtins that consume an iterable argument: pure only of a display of constants (`frozenset(("a", "b"))`).
READERS = {"getattr", "hasattr"}
CONSTANT_BUILTINS = {"tuple", "frozenset"}
# re.Match methods: a match object never changes, and these give strings, ints or tuples of them.
MATCH_METHODS = {"group", "groups", "start", "end", "span"}
MATCH_MAKERS = {"match", "fullmatch", "search"}
# str methods that give a str, bool, int or tuple (never a list: two lists are two objects).
STR_METHODS = {
    "strip", "lstrip", "rstrip", "lower", "upper", "casefold", "title", "capitalize", "swapcase", "replace", "startswith",
    "endswith", "find", "rfind", "count", "isdigit", "isalpha", "isalnum", "isspace", "isidentifier", "islower", "isupper",
    "isdecimal", "isnumeric", "partition", "rpartition", "zfill", "ljust", "rjust", "center", "removeprefix", "removesuffix",
}
# Regex functions whose result is a new object built only from the pattern and the string: a re.Match (never
# changes) or a list of strs. With a str pattern the string must be a str too (re raises TypeError otherwise), which
# nothing can change. Written at each use they give an equal object, not the same one: inline_local.fresh_uses_ok
# lets only uses that cannot tell (a truth test, `is None`, an attribute of a match, an item of a list).
FRESH_MATCH = {"match", "fullmatch", "search"}
FRESH_LIST = {"split", "findall"}
# Builtins that, called with no positional argument (`dict(on_stderr=self.on_stderr)`), only make a new container:
# they call nothing else, so they cannot change what a value reads.
EMPTY_MAKERS = {"dict", "list", "tuple", "set", "frozenset"}
# Reads of a mapping the function is told is a dict (`matches: Dict[str, str]`).
DICT_METHODS = {"get"}
DICT_TYPES = {"dict", "Dict", "Mapping", "MutableMapping"}


def repeatable_calls(value, scope, tree):
    """The calls of `value` if every one is on the allowlist, each with whether its receiver is immutable (a match, a
    str): then only the other ones read state a later statement could change. None if any call is not allowed."""
    bindings = _bindings(tree)
    found = []
    for node in ast.walk(value):
        if isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Lambda, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            if not _inside_constant_builtin(node, value):
                return None
        if not isinstance(node, ast.Call):
            continue
        kind = _allowed(node, scope, bindings)
        if kind is None:
            return None
        found.append((node, kind == "immutable"))
    return found


def fresh_call(value, tree):
    """"match" or "list" if value is one regex call on a str pattern written in the code (`re.split(r"\\n", text)`,
    `TZ_RE.match(text)` with `TZ_RE = re.compile("…")` at module level) of a name or a constant, else None."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and not value.keywords and isinstance(value.func.value, ast.Name)):
        return None
    bindings = _bindings(tree)
    kind = "match" if value.func.attr in FRESH_MATCH else "list" if value.func.attr in FRESH_LIST else None
    receiver, args = value.func.value.id, list(value.args)
    if bindings.is_re(receiver):
        pattern = args.pop(0) if args else None
    elif bindings.is_pattern(receiver):
        pattern = bindings.pattern_source(receiver)
    else:
        return None
    if kind is None or len(args) != 1 or not _str_constant(pattern):
        return None
    return kind if isinstance(args[0], ast.Name) or _str_constant(args[0]) else None


def cannot_tell_apart(source, use, kind):
    """Whether the use gives the same result for an equal new object as for the one the variable held: a truth test,
    `is None`, an attribute of a match (a match is read-only), an item or slice of a list, len of it, a for over it."""
    parent = source.parent[use]
    if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)) and parent.test is use:
        return True
    if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
        return True
    if isinstance(parent, ast.Compare) and parent.left is use and len(parent.ops) == 1 and isinstance(parent.ops[0], (ast.Is, ast.IsNot)):
        return isinstance(parent.comparators[0], ast.Constant) and parent.comparators[0].value is None
    if kind == "match":
        return isinstance(parent, ast.Attribute) and parent.value is use
    if isinstance(parent, ast.Subscript) and parent.value is use and isinstance(parent.ctx, ast.Load):
        return True
    if isinstance(parent, (ast.For, ast.AsyncFor)) and parent.iter is use:
        return True
    return isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len" and parent.args == [use] and not parent.keywords and not _bindings(source.tree).bound("len")


def inert_call(call, scope, tree):
    """A call that cannot change any state: one on the allowlist, or an empty container made by a builtin."""
    bindings = _bindings(tree)
    func = call.func
    if isinstance(func, ast.Name) and func.id in EMPTY_MAKERS and not bindings.bound(func.id) and not call.args:
        return all(k.arg is not None for k in call.keywords) and (func.id == "dict" or not call.keywords)
    return _allowed(call, scope, bindings) is not None


def reads_only(call, tree):
    """A builtin that reads its arguments and changes none of them: the allowlist's builtins, and `getattr`/`hasattr`,
    which read an attribute as `obj.name` does (a property's code runs either way). Not the project's own `getattr`."""
    return builtin_call(call, PURE_BUILTINS | READERS, tree)


def builtin_call(call, names, tree):
    """A call of one of these builtins, by a name the module does not bind to something else."""
    return isinstance(call.func, ast.Name) and call.func.id in names and not _bindings(tree).bound(call.func.id)


def _str_constant(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _inside_constant_builtin(node, value):
    return any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in CONSTANT_BUILTINS and node in c.args for c in ast.walk(value))


def _constants(node):
    return isinstance(node, ast.Constant) or (isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(e, ast.Constant) for e in node.elts))


def _allowed(call, scope, bindings):
    """"immutable", "reads" (its arguments' state), or None."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    func = call.func
    if isinstance(func, ast.Name) and not bindings.bound(func.id):
        if func.id in PURE_BUILTINS and not call.keywords and (func.id != "type" or len(call.args) == 1):
            return "reads"
        if func.id in CONSTANT_BUILTINS and not call.keywords and len(call.args) == 1 and _constants(call.args[0]):
            return "immutable"
        return None
    if not isinstance(func, ast.Attribute):
        return None
    receiver = func.value
    if func.attr in MATCH_METHODS and isinstance(receiver, ast.Name) and _is_match(receiver.id, scope, bindings):
        return "immutable"
    if func.attr in STR_METHODS and (isinstance(receiver, ast.Constant) and isinstance(receiver.value, str) or _annotated(receiver, scope, {"str"})):
        return "immutable"
    if func.attr in DICT_METHODS and _annotated(receiver, scope, DICT_TYPES):
        return "reads"
    return None


def _annotated(receiver, scope, types):
    """A parameter of the function annotated with one of the types (`s: str`, `m: Dict[str, str]`), never rebound."""
    if not isinstance(receiver, ast.Name) or not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    args = scope.args
    for a in args.posonlyargs + args.args + args.kwonlyargs:
        if a.arg == receiver.id and a.annotation is not None:
            note = a.annotation.value if isinstance(a.annotation, ast.Subscript) else a.annotation
            name = note.attr if isinstance(note, ast.Attribute) else note.id if isinstance(note, ast.Name) else None
            return name in types and _stores(scope, receiver.id) == 0
    return False


def _is_match(name, scope, bindings):
    """`name = PATTERN.match(…)` once in the function, PATTERN a module constant `re.compile(…)` (or `re` itself)."""
    assigned = [n for n in ast.walk(scope) if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    if len(assigned) != 1 or _stores(scope, name) != 1 or len(assigned[0].targets) != 1:
        return False
    made = assigned[0].value
    if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute) and made.func.attr in MATCH_MAKERS and isinstance(made.func.value, ast.Name)):
        return False
    maker = made.func.value.id
    return bindings.is_re(maker) or bindings.is_pattern(maker)


def _stores(scope, name):
    return sum(1 for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load))


_last = (None, None)


def _bindings(tree):
    """The module's _Bindings, built once per tree: inline asks for them at each call between a value and its uses."""
    global _last
    if _last[0] is not tree:
        _last = (tree, _Bindings(tree))
    return _last[1]


class _Bindings:
    """What the module binds, to tell the builtin `len` and the module `re` from a name the project defines."""

    def __init__(self, tree):
        self.tree = tree
        self.names = {}
        for n in ast.walk(tree):
            bound = None
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                bound = n.id
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound = n.name
            elif isinstance(n, ast.alias):
                bound = (n.asname or n.name).split(".")[0]
            elif isinstance(n, ast.arg):
                bound = n.arg
            elif isinstance(n, ast.ExceptHandler) and n.name:
                bound = n.name
            elif isinstance(n, (ast.Global, ast.Nonlocal)):
                for g in n.names:
                    self.names.setdefault(g, []).append(n)
            if bound is not None:
                self.names.setdefault(bound, []).append(n)

    def bound(self, name):
        return name in self.names

    def is_re(self, name):
        found = self.names.get(name, [])
        return name == "re" and len(found) == 1 and isinstance(found[0], ast.alias) and found[0].name == "re" and found[0].asname is None

    def is_pattern(self, name):
        return self._compiled(name) is not None

    def pattern_source(self, name):
        """The pattern argument of the module's `name = re.compile(pattern)` (None if flags or anything else follow)."""
        value = self._compiled(name)
        pattern = value.args[0] if len(value.args) == 1 and not value.keywords else None
        return self._module_constant(pattern.id) if isinstance(pattern, ast.Name) else pattern

    def _module_constant(self, name):
        """The value of `NAME = <constant>`, a module statement that is the name's only binding (`TZ_REGEX = r"…"`)."""
        found = self.names.get(name, [])
        assign = next((s for s in self.tree.body if isinstance(s, ast.Assign) and len(found) == 1 and s.targets == [found[0]]), None)
        return assign.value if assign is not None and isinstance(assign.value, ast.Constant) else None

    def _compiled(self, name):
        found = self.names.get(name, [])
        if len(found) != 1 or not isinstance(found[0], ast.Name):
            return None
        assign = next((s for s in self.tree.body if isinstance(s, ast.Assign) and s.targets == [found[0]]), None)
        value = assign.value if assign else None
        ok = (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "compile"
            and isinstance(value.func.value, ast.Name) and self.is_re(value.func.value.id)
        )
        return value if ok else None
