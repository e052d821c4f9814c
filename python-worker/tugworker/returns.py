# What a function hands back, as far as its return statements tell: itself-like values that type inference follows.
import ast

WRAPS = ("wraps", "update_wrapper")


_BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)


def _returns(body):
    """Return statements of a function body, not those of nested functions or classes. Only statements can hold a
    return, so expressions are not walked; the order is the one a walk of every child node gives."""
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, _BLOCKS))


def _wrapper_names(body):
    """Nested functions decorated with functools.wraps(...): a decorator returning one keeps the function's shape."""
    names = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                func = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
                if name in WRAPS:
                    names.add(node.name)
    return names


def _is_own_class(value, first):
    """`self.__class__` or `type(self)`: the class of the instance a method runs on."""
    if isinstance(value, ast.Attribute) and value.attr == "__class__":
        return isinstance(value.value, ast.Name) and value.value.id == first
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "type" and len(value.args) == 1:
        return isinstance(value.args[0], ast.Name) and value.args[0].id == first
    return False


def _class_names(body, first):
    """Local names bound to the instance's own class (`cls = self.__class__`), plus `cls` in a classmethod."""
    names = {"cls"} if first == "cls" else set()
    for node in body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and _is_own_class(node.value, first):
            names.add(node.targets[0].id)
    return names


def _unwrapped(value):
    """`typing.cast(T, x)` is x."""
    while isinstance(value, ast.Call) and _called_name(value) == "cast" and len(value.args) == 2:
        value = value.args[1]
    return value


def _called_name(call):
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _keeping_factories(body):
    """Nested functions that are decorators keeping what they wrap (a decorator factory returns one)."""
    return {n.name for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and returned_kind(n) in ("param", "wrapper")}


def returned_kind(node):
    """'self', 'cls' (a new instance of the class), 'cls-object' (the class), 'param' (the first argument
    unchanged), 'wrapper' (a functools.wraps / update_wrapper wrapper) or 'factory' (a nested decorator that
    keeps what it wraps) when every return statement agrees; None otherwise."""
    args = node.args.posonlyargs + node.args.args
    first = args[0].arg if args else None
    wrappers = _wrapper_names(node.body)
    own = _class_names(node.body, first) if first else set()
    kinds = set()
    keeping = None
    for ret in _returns(node.body):
        value = _unwrapped(ret.value)
        if isinstance(value, ast.Name) and value.id == first and first in ("self", "cls"):
            kinds.add("self" if first == "self" else "cls-object")
        elif isinstance(value, ast.Name) and value.id == first:
            kinds.add("param")
        elif isinstance(value, ast.Name) and value.id in wrappers:
            kinds.add("wrapper")
        elif isinstance(value, ast.Call) and _called_name(value) in WRAPS:
            kinds.add("wrapper")  # functools.update_wrapper(new, fn)
        elif isinstance(value, ast.Name) and value.id in (keeping if keeping is not None else (keeping := _keeping_factories(node.body))):
            kinds.add("factory")
        elif isinstance(value, ast.Call) and ((isinstance(value.func, ast.Name) and value.func.id in own) or _is_own_class(value.func, first)):
            kinds.add("cls")
        else:
            return None
    return kinds.pop() if len(kinds) == 1 else None


def returned_call(node):
    """The callee when every return statement calls the same name (`return Application(url, stream)`), else None:
    a factory without an annotation, whose result type inference takes as an instance when the name is a class."""
    func = None
    for ret in _returns(node.body):
        value = ret.value
        if not isinstance(value, ast.Call) or not isinstance(value.func, (ast.Name, ast.Attribute)):
            return None
        if func is not None and ast.dump(func) != ast.dump(value.func):
            return None
        func = func or value.func
    return func
