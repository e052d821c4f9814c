# A decorator runs when the module that holds the definition is imported. One that registers the definition somewhere
# (a table of format checkers, a URL route, a pytest fixture, an atexit hook) only does so if something imports the
# module the definition moves to; moved to a module nothing imports, the registration silently disappears.
import ast

from tugworker.local_edits import Refused
from tugworker.move_module import Module

# Modules whose decorators only wrap or describe the definition: applied in another module, they do the same thing.
WRAPPING_MODULES = frozenset(
    {"abc", "attr", "attrs", "contextlib", "dataclasses", "enum", "functools", "six", "typing", "typing_extensions"}
)
# Builtins that wrap a function; a module that rebinds one of these names is not using the builtin.
WRAPPING_BUILTINS = frozenset({"classmethod", "property", "staticmethod"})


def registering_decorator(stmt, module):
    """The first decorator of `stmt` that tug cannot show to be a plain wrapper, or None when there is none."""
    for decorator in getattr(stmt, "decorator_list", []):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        root = target
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name):
            return decorator
        if root is target and root.id in WRAPPING_BUILTINS and root.id not in module.top_bindings:
            continue
        origin = module.import_origin(root.id)
        if origin is not None and origin[1].split(".")[0] in WRAPPING_MODULES:
            continue
        return decorator
    return None


# Metaclasses that only check or describe the class (abstract methods, enums) and keep no table of classes.
PLAIN_METACLASSES = frozenset({"ABCMeta", "EnumMeta", "EnumType", "type"})


def registering_base(stmt, module, files):
    """For a class: its `metaclass=` or the first base class (defined in the project) whose `__init_subclass__` or
    metaclass runs code for every subclass, as a plugin registry does; None when there is none."""
    if not isinstance(stmt, ast.ClassDef):
        return None
    by_module = {entry.get("module"): entry for entry in files}
    for keyword in stmt.keywords:
        if keyword.arg == "metaclass" and not _plain_metaclass(keyword.value):
            return keyword.value
    for base in stmt.bases:
        if _hooks_subclasses(base, module, by_module, set()):
            return base
    return None


def _plain_metaclass(expr):
    name = expr.attr if isinstance(expr, ast.Attribute) else getattr(expr, "id", None)
    return name in PLAIN_METACLASSES


def _hooks_subclasses(base, module, by_module, seen):
    """Whether the class `base` names (in `module`, or imported from a project module) hooks the creation of its
    subclasses, itself or through its own bases. Classes from outside the project are not looked into."""
    if not isinstance(base, ast.Name) or (module.name, base.id) in seen or len(seen) > 20:
        return False
    seen.add((module.name, base.id))
    found = next((s for s in module.tree.body if isinstance(s, ast.ClassDef) and s.name == base.id), None)
    if found is None:
        origin = module.import_origin(base.id)
        entry = by_module.get(origin[1]) if origin is not None and origin[0] == "from" else None
        if entry is None:
            return False
        try:
            source = Module(entry)
        except Refused:
            return False
        return _hooks_subclasses(ast.Name(id=origin[2][0][0]), source, by_module, seen)
    if any(isinstance(s, ast.FunctionDef) and s.name == "__init_subclass__" for s in found.body):
        return True
    if any(k.arg == "metaclass" and not _plain_metaclass(k.value) for k in found.keywords):
        return True
    return any(_hooks_subclasses(b, module, by_module, seen) for b in found.bases)
