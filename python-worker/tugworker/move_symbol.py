# move-symbol: a top-level function, class or constant goes to another module, with the imports it needs;
# every import of it is pointed at its new home (move_refs.py). Offsets are UTF-8 byte offsets, as everywhere in tug.
import ast
import builtins
import importlib.machinery
import os
import re
import sys

from tugworker.local_edits import Refused
from tugworker.move_decorators import registering_base, registering_decorator
from tugworker.move_module import Module, import_line, spell_import
from tugworker.move_refs import dotted_path, rewrite_references
from tugworker.stdlib_names import STDLIB

BUILTINS = frozenset(dir(builtins)) | {"__name__", "__file__", "__doc__", "__spec__", "__builtins__"}


def _symbol_at(module, offset):
    """The top-level statement the cursor names (def/class name or the target of a one-name assignment)."""
    src = module.src
    for stmt in module.tree.body:
        start, end = src.span(stmt)
        first = min([start] + [src.span(d)[0] - 1 for d in getattr(stmt, "decorator_list", [])])
        if not first <= offset <= end:
            continue
        name = _bound_name(stmt)
        if name is not None:
            at = src.data.find(name.encode(), src.span(stmt)[0] if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) else start)
            header = at + len(name) if at >= 0 else -1
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                keyword = src.data.find(b" " + name.encode(), start) + 1
                if keyword <= offset <= keyword + len(name):
                    return stmt, name
            elif at <= offset <= header:
                return stmt, name
        where = dict(zip(("line", "col"), src.position(offset)))
        raise Refused("UnsupportedOperation", "the position is not on the name of a top-level function, class or constant (move-symbol moves only those)", where)
    raise Refused("SymbolNotFound", "no top-level definition at the position", dict(zip(("line", "col"), src.position(offset))))


def _bound_name(stmt):
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return stmt.name
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return stmt.target.id
    return None


def _block(src, stmt):
    """The moved bytes: leading comment lines and decorators through the end of the statement's last line."""
    first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
    line = first
    while line > 1 and src.slice(src.starts[line - 2], src.starts[line - 1]).lstrip().startswith("#"):
        line -= 1
    start = src.starts[line - 1]
    end = src.starts[stmt.end_lineno] if stmt.end_lineno < len(src.starts) else len(src.data)
    return start, end


def _removal(src, start, end):
    """The span that takes the block out, with blank lines after it (or before it at the end of the file)."""
    data = src.data
    stop = end
    while stop < len(data):
        newline = data.find(b"\n", stop)
        line = data[stop : newline + 1 if newline >= 0 else len(data)]
        if line.strip():
            return start, stop
        stop += len(line)
    begin = start
    while begin > 0:
        previous = data.rfind(b"\n", 0, begin - 1) + 1
        if data[previous:begin].strip():
            break
        begin = previous
    return begin, stop


def _type_checking_imports(tree):
    """Names imported in a top-level `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`) block, with the import's line."""
    out = {}
    for stmt in tree.body:
        test = stmt.test if isinstance(stmt, ast.If) else None
        if not ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")):
            continue
        for node in ast.walk(stmt):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    out.setdefault((a.asname or a.name).split(".")[0], node.lineno)
    return out


def _free_names(stmt, name):
    """Names the statement reads that it does not bind itself (a function's parameters and locals are its own)."""
    bound = {name}
    for node in ast.walk(stmt):
        if isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node is not getattr(stmt, "target", None):
            if not isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                bound.add(node.id)
    read = []
    for node in [*ast.walk(stmt), *_forward_references(stmt)]:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound and node.id not in BUILTINS and node.id not in read:
            read.append(node.id)
    return read


def _forward_references(stmt):
    """The names inside string annotations (`"TypeChecker"` in `Callable[["TypeChecker", Any], bool]`) and the type
    argument of `cast(...)`: type checkers and pyflakes resolve them in the module, so the new module must bind them
    too (jsonschema's `_typed_pmap_converter` in the sweep left `TypeChecker` undefined there)."""
    typed = []
    for node in ast.walk(stmt):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs + [node.args.vararg, node.args.kwarg]
            typed.extend(a.annotation for a in arguments if a is not None and a.annotation is not None)
            typed.extend([node.returns] if node.returns is not None else [])
        elif isinstance(node, ast.AnnAssign):
            typed.append(node.annotation)
        elif isinstance(node, ast.Call) and node.args and dotted_path(node.func) in ("cast", "typing.cast"):
            typed.append(node.args[0])
    names = []
    for annotation in typed:
        literal = {id(n) for sub in ast.walk(annotation) if isinstance(sub, ast.Subscript) and dotted_path(sub.value) in ("Literal", "typing.Literal", "typing_extensions.Literal") for n in ast.walk(sub.slice)}
        for node in ast.walk(annotation):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in literal:
                try:
                    names.extend(n for n in ast.walk(ast.parse(node.value.strip(), mode="eval")) if isinstance(n, ast.Name))
                except SyntaxError:
                    continue
    return names


def _rebound_at_run_time(tree, moved):
    """Module globals that code outside the moved statement rebinds while the program runs (a `global` declaration), with the first line that declares each."""
    rebound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Global) and not (moved.lineno <= node.lineno <= (moved.end_lineno or moved.lineno)):
            for declared in node.names:
                rebound.setdefault(declared, node.lineno)
    return rebound


SPECIAL = re.compile(r"__\w+__$")


def _shadowed(dest_name, top_in_repo):
    """What a module of that name would hide from every import in the program: the standard library, or an installed
    top-level package the repository does not already provide itself (a package installed from this repository is
    its own)."""
    top = dest_name.split(".")[0]
    if top in STDLIB or top in getattr(sys, "stdlib_module_names", ()) or top in sys.builtin_module_names:
        return "the standard library's %s" % top
    if top_in_repo:
        return None
    return "the installed package %s" % top if _installed(top) else None


def _installed(top):
    """Whether the interpreter's site-packages hold a top-level module or package of that name. The worker runs
    without site (-S), so those directories are asked for by name; a finder looks there and imports nothing."""
    import site

    dirs = list(getattr(site, "getsitepackages", lambda prefixes=None: [])(_prefixes())) + [getattr(site, "getusersitepackages", lambda: "")()]
    try:
        return importlib.machinery.PathFinder.find_spec(top, [d for d in dirs if d]) is not None
    except (ImportError, ValueError):
        return False


def _prefixes():
    """The interpreter's prefixes. Without site, a venv's python reports its base prefix: its own is the directory
    holding pyvenv.cfg, next to or above the executable; the base's packages count only where the venv includes them."""
    here = os.path.dirname(os.path.abspath(sys.executable))
    for venv in (here, os.path.dirname(here)):
        config = os.path.join(venv, "pyvenv.cfg")
        if os.path.isfile(config):
            with open(config, encoding="utf-8", errors="replace") as handle:
                shared = re.search(r"^\s*include-system-site-packages\s*=\s*true\s*$", handle.read(), re.IGNORECASE | re.MULTILINE)
            return [venv, sys.base_prefix] if shared else [venv]
    return [sys.prefix]


def move_symbol(request):
    files = {f["path"]: f for f in request["files"]}
    dest_path, dest_name = request["dest_path"], request["dest_module"]
    shadowed = _shadowed(dest_name, bool(request.get("dest_top_in_repo")))
    if shadowed:
        reason = "%s would shadow %s: every `import %s` in the program would find it instead" % (dest_name, shadowed, dest_name.split(".")[0])
        raise Refused("InvalidArgument", reason, {"argument": "destination", "reason": "shadows " + shadowed})
    old = Module(files[request["source"]])
    if dest_path == old.path or dest_name == old.name:
        raise Refused("InvalidArgument", "the destination is the module the symbol is already in", {"argument": "destination"})
    stmt, name = _symbol_at(old, request["offset"])
    if SPECIAL.match(name):
        # `__all__`, `__version__`, `__getattr__`: a module's special names are read from that module by spelling.
        raise Refused("UnsafeRefactor", "%s is a special name of %s: Python and tools read it from that module by name, so it cannot move" % (name, old.name), {"reason": "special name", "name": name})
    dest = Module(files[dest_path]) if dest_path in files else None
    old.dest_name = dest_name
    if dest is not None and name in dest.top_bindings and not dest.imports_from(name, old.name):
        line = dest.top_bindings[name]
        raise Refused("NameConflict", "%s already binds %s (line %d)" % (dest_path, name, line), {"conflicts": [{"file": dest_path, "line": line}]})
    src = old.src
    start, end = _block(src, stmt)
    moved = src.slice(start, end)
    for node in ast.walk(stmt):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            line, col = node.lineno, node.col_offset + 1
            raise Refused("UnsafeRefactor", "the code declares `global %s`: moved, it would rebind a global of the new module" % ", ".join(node.names), {"line": line, "col": col, "reason": "global statement"})
    needs_old, carried, unknown, globals_read = [], [], [], []
    free_names = _free_names(stmt, name)
    rebound = _rebound_at_run_time(old.tree, stmt)
    for free in free_names:
        if free in rebound and old.import_origin(free) is None:
            # A copy imported into the destination keeps the value it had at import time, or fails if it was unset then.
            line = rebound[free]
            raise Refused(
                "UnsafeRefactor",
                "%s reads the global %s, which %s rebinds at run time (`global %s`, line %d): moved, it would read a copy taken at import" % (name, free, old.name, free, line),
                {"line": line, "col": 1, "reason": "global rebound at run time", "name": free},
            )
    for free in free_names:
        origin = old.import_origin(free)
        if origin is not None:
            carried.append(origin)
        elif free in old.top_bindings or free in old.block_bindings:
            needs_old.append(free)
        else:
            unknown.append(free)
        globals_read.append(free)
    typing_only = _type_checking_imports(old.tree)
    for free in unknown:
        if free in typing_only:
            # `if TYPE_CHECKING: import jsonschema` then `jsonschema.TypeChecker` in an annotation: the new module would
            # read a name it never binds (jsonschema's Validator in the sweep; pyflakes: undefined name).
            raise Refused(
                "UnsafeRefactor",
                "%s reads %s, which %s imports only under `if TYPE_CHECKING:` (line %d); tug does not carry such imports, so the new module would not have it" % (name, free, old.name, typing_only[free]),
                {"line": typing_only[free], "col": 1, "reason": "type-checking import", "name": free},
            )
    stars = [s for s in old._top_imports() if isinstance(s, ast.ImportFrom) and any(a.name == "*" for a in s.names)]
    if unknown and stars:
        # `comp = compose` under `from .functoolz import *`: the name comes from one of the star imports, which one
        # tug cannot tell, so the new module would not have it.
        line = stmt.lineno
        raise Refused(
            "UnsafeRefactor",
            "%s reads %s, which %s gets from a star import (line %d): tug cannot tell which module binds it, so the new module would not have it" % (name, ", ".join(unknown), old.name, stars[0].lineno),
            {"line": line, "col": 1, "reason": "name from a star import", "name": unknown[0]},
        )
    old_uses = old.reads_outside(name, stmt)
    keep = bool(request.get("keep_reexport"))
    star = [] if keep else _star_importers(request["files"], old, name)
    edits, creates, unsure, warnings = [], [], [], []
    if star:
        # `from old import *` re-exports the name without naming it (a package's __init__, `from pkg._impl import
        # __all__`): only a binding left in the old module keeps it there, so the move keeps one, as --keep-reexport.
        keep = True
        warnings.append({"code": "ReexportKept", "message": "%s star-imports %s, which brings %s: %s keeps `from %s import %s` so that it still does" % (", ".join(star), old.name, name, old.name, dest_name, name)})
    elif not keep and old.path.rsplit("/", 1)[-1] == "__init__.py" and not name.startswith("_"):
        # A package's public names are what `import pkg; pkg.NAME` and `from pkg import NAME` reach from anywhere,
        # inside the repository or not: the package keeps the name.
        keep = True
        warnings.append({"code": "ReexportKept", "message": "%s is a public name of the package %s: it keeps `from %s import %s`" % (name, old.name, dest_name, name)})
    hook = None if old_uses or keep else registering_base(stmt, old, request["files"])
    if hook is not None:
        # `class JSONPlugin(Plugin)` where Plugin.__init_subclass__ adds every subclass to a table: the same as a
        # registering decorator, run by the class statement.
        raise Refused(
            "UnsafeRefactor",
            "%s's class statement runs `%s`'s subclass hook (`__init_subclass__` or a metaclass, line %d), which may register it when its module is imported; nothing would import %s, so the registration would be lost%s"
            % (name, ast.unparse(hook), hook.lineno, dest_name, "" if needs_old else " (--keep-reexport keeps %s importing it)" % old.name),
            {"line": hook.lineno, "col": hook.col_offset + 1, "reason": "registering base class", "name": name},
        )
    decorator = None if old_uses or keep else registering_decorator(stmt, old)
    if decorator is not None:
        # jsonschema's `@_checks_drafts(...)` adds the checker to a table when _format.py is imported; moved to a
        # module nothing imports, the checker would be gone (the sweep's is_ipv4, is_ipv6 and is_date).
        raise Refused(
            "UnsafeRefactor",
            "%s is decorated with `@%s` (line %d), which may register it when its module is imported; nothing would import %s, so the registration would be lost%s"
            % (name, _decorator_text(decorator), decorator.lineno, dest_name, "" if needs_old else " (--keep-reexport keeps %s importing it)" % old.name),
            {"line": decorator.lineno, "col": decorator.col_offset + 1, "reason": "registering decorator", "name": name},
        )
    if old_uses or keep:
        late = _late_import(old, carried)
        if late is not None:
            raise Refused(
                "ImportCycle",
                "%s imports %s only at line %d, after its own definitions (the way to break an import cycle); the new module would import it first, while %s imports the new module at module level" % (old.name, late[1], late[0], old.name),
                {"modules": [old.name, dest_name], "names": [name]},
            )
    if needs_old and (old_uses or keep or old.imports_module(dest_name)):
        why = "uses %s" % name if old_uses else ("re-exports %s to %s's star import" % (name, ", ".join(star)) if star else "re-exports %s" % name) if keep else "imports %s at module level" % dest_name
        raise Refused(
            "ImportCycle",
            "%s would import %s from %s at module level while %s %s: a cycle at import time" % (dest_name, ", ".join(needs_old), old.name, old.name, why),
            {"modules": [old.name, dest_name], "names": needs_old},
        )
    if needs_old:
        carried.append(("from", old.name, [(n, None) for n in needs_old]))
    if (old_uses or keep) and dest is not None and dest.imports_module(old.name):
        raise Refused(
            "ImportCycle",
            "%s imports %s at module level, and %s would import %s back from it: a cycle at import time" % (dest_name, old.name, old.name, name),
            {"modules": [old.name, dest_name], "names": [name]},
        )
    if unknown:
        # Bound in a conditional block (TYPE_CHECKING, try/except) or nowhere: the destination gets no import for them.
        warnings.append({"code": "NamesNotCarried", "message": "%s reads %s, which %s does not import or define at top level; the destination gets no import for them" % (name, ", ".join(unknown), old.name)})
    cut = _removal(src, start, end)
    edits.append(old.edit(cut[0], cut[1], ""))
    if old_uses or keep:
        edits.append(old.insert_import("from %s import %s" % (dest_name, name)))
    if not keep:
        edits.extend(old.drop_from_all(name))
    if dest is None:
        relative, package = old.prefers_relative(), dest_name.rpartition(".")[0]
        header = "".join(spell_import(import_line(c), package, relative) + "\n" for c in _future(old) + _dedupe(carried))
        creates.append({"path": dest_path, "content": header + ("\n\n" if header else "") + moved})
    else:
        edits.extend(dest.receive(name, moved, [c for c in _dedupe(carried) if not dest.has_import(c)], old.name))
    skip = {old.path, dest_path}
    _move_stub(files, old, dest_path, dest is None, name, keep, edits, creates, warnings, skip)
    still_read = {g for g in globals_read if old.reads_outside(g, stmt)}
    rewrite_references(request["files"], old, dest_name, name, keep, edits, unsure, skip=skip, globals_read=globals_read, still_read=still_read)
    return {"edits": edits, "creates": creates, "unsure": unsure, "warnings": warnings, "name": name, "kind": type(stmt).__name__, "old_module": old.name}


def _decorator_text(decorator):
    """`_checks_drafts(...)` for a decorator call: the arguments do not help the reader and can run for lines."""
    return ast.unparse(decorator.func) + "(...)" if isinstance(decorator, ast.Call) else ast.unparse(decorator)


def _move_stub(files, old, dest_path, dest_new, name, keep, edits, creates, warnings, skip):
    """The stub beside the old module loses the declaration; the destination's stub gains it (created along with a
    new destination module; an existing module without a stub stays without one)."""
    stub_path = old.path + "i" if old.path.endswith(".py") else None
    if stub_path not in files:
        return
    skip.add(stub_path)
    stub = Module(files[stub_path])
    stmt = next((s for s in stub.tree.body if _bound_name(s) == name), None)
    if stmt is None:
        return
    start, end = _block(stub.src, stmt)
    moved = stub.src.slice(start, end)
    carried, needs_old = [], []
    for free in _free_names(stmt, name):
        origin = stub.import_origin(free)
        if origin is not None:
            carried.append(origin)
        elif free in stub.top_bindings:
            needs_old.append((free, None))
    carried = _dedupe(carried + ([("from", old.name, needs_old)] if needs_old else []))
    cut = _removal(stub.src, start, end)
    edits.append(stub.edit(cut[0], cut[1], ""))
    if keep or stub.reads_outside(name, stmt):
        edits.append(stub.insert_import("from %s import %s as %s" % (old.dest_name, name, name)))
    dest_stub = dest_path + "i"
    skip.add(dest_stub)
    if dest_stub in files:
        target = Module(files[dest_stub])
        edits.extend(target.receive(name, moved, [c for c in carried if not target.has_import(c)], old.name))
    elif dest_new:
        header = "".join(import_line(c) + "\n" for c in carried)
        creates.append({"path": dest_stub, "content": header + ("\n\n" if header else "") + moved})
    # An existing destination without a stub is read by type checkers as it is: the declaration is not needed there.


def _late_import(old, carried):
    """The first carried import that the old module makes only after a definition of its own (line, module), or None."""
    first_def = next((s.lineno for s in old.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))), None)
    if first_def is None:
        return None
    for stmt in old._top_imports():
        if stmt.lineno < first_def:
            continue
        module = old.absolute(stmt.level, stmt.module) if isinstance(stmt, ast.ImportFrom) else None
        for c in carried:
            if (c[0] == "from" and module is not None and c[1] == module and any(n == a.name for n, _ in c[2] for a in stmt.names)) or (
                c[0] == "import" and isinstance(stmt, ast.Import) and any(a.name == c[1] for a in stmt.names)
            ):
                return stmt.lineno, c[1]
    return None


def _star_importers(files, old, name):
    """The files whose `from <old> import *` brings name (sorted)."""
    found = []
    for entry in files:
        if entry["path"] == old.path or "import *" not in entry["content"]:
            continue
        try:
            module = Module(entry)
        except Refused:
            continue
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names) and module.absolute(node.level, node.module) == old.name:
                if old.star_exports(name) and entry["path"] not in found:
                    found.append(entry["path"])
    return sorted(found)


def _future(old):
    """The old module's `from __future__` imports: a new module starts with them (they change how code compiles)."""
    found = [s for s in old.tree.body if isinstance(s, ast.ImportFrom) and s.module == "__future__"]
    return [("from", "__future__", [(a.name, a.asname) for a in s.names]) for s in found]


def _dedupe(carried):
    out = []
    for c in carried:
        if c not in out:
            out.append(c)
    return out
