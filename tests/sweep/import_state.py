# The import-time half of the sweep's independent check: what a program sees after importing the package. A change
# that the tests and pyflakes let through can still lose state that importing builds, as a move of a function whose
# decorator registers it did (jsonschema's format checkers: the table had one checker fewer, and no test asked for
# it). This imports the given modules in order and prints, for every container bound at module level or on a class
# the module defines (and the containers held by a module-level mapping's values, one level down), its size; and the
# modules that failed to import. Comparing the base with a result shows lost registrations and broken imports.
# Usage: python3 -I import_state.py ROOT MODULE... ; prints {"sizes": {path: n}, "failed": {module: error}}.
import contextlib
import importlib
import io
import json
import sys

CONTAINERS = (dict, list, set, frozenset, tuple)


def sizes_of(prefix, namespace, out, depth):
    for key in sorted(k for k in namespace if isinstance(k, str) and not k.startswith("__")):
        value = namespace[key]
        path = "%s.%s" % (prefix, key)
        if isinstance(value, CONTAINERS):
            out[path] = len(value)
            if depth and isinstance(value, dict):
                for inner in sorted(k for k in value if isinstance(k, (str, int))):
                    held = getattr(value[inner], "__dict__", None)
                    if isinstance(held, dict):
                        sizes_of("%s[%r]" % (path, inner), held, out, 0)
        elif depth and isinstance(value, type) and value.__module__ == prefix:
            sizes_of(path, dict(vars(value)), out, 0)


def main():
    root, modules = sys.argv[1], sys.argv[2:]
    sys.path.insert(0, root)
    failed = {}
    for name in modules:
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                importlib.import_module(name)
        except BaseException as error:  # a module that cannot load here (Windows-only, say) is recorded, not fatal
            failed[name] = type(error).__name__
    sizes = {}
    for name in modules:
        module = sys.modules.get(name)
        if module is not None:
            sizes_of(name, dict(vars(module)), sizes, 1)
    print(json.dumps({"sizes": sizes, "failed": failed}, sort_keys=True))


main()
