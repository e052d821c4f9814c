# A decorator runs when the module that holds the definition is imported. One that registers the definition somewhere
# (a table of format checkers, a URL route, a pytest fixture, an atexit hook) only does so if something imports the
# module the definition moves to; moved to a module nothing imports, the registration silently disappears.
import ast

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
