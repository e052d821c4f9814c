# move-symbol's rewriting of every other file: imports of the moved name, uses through a module alias, strings.
import ast

from tugworker.local_edits import Refused
from tugworker.move_module import Module, drop_alias
from tugworker.positions import Positions, string_content_span


def rewrite_references(files, old, dest_name, name, keep, edits, unsure, skip, globals_read=(), still_read=()):
    modules = []
    for entry in files:
        if entry["path"] in skip or entry.get("skip_refs"):
            continue
        try:
            modules.append(Module(entry))
        except Refused:
            continue
    # A global some other module reads from the old module (`clock.now()`, `from old import now`) is one a patch of
    # the old module's binding may be meant for: its patch strings stay as they are (listed).
    read_elsewhere = {g for g in globals_read for m in modules if _reads_global(m, old, g)}
    patched = _patch_targets(modules)
    for module in modules:
        _rewrite_file(module, old, dest_name, name, keep, edits, unsure, patched)
        _patched_globals(module, old, dest_name, name, globals_read, set(still_read) | read_elsewhere, edits, unsure)


def _patch_targets(modules):
    """Every string passed to a call (`patch("pkg.user.old")`): the shape of a patch target."""
    return {
        a.value
        for m in modules
        for call in ast.walk(m.tree)
        if isinstance(call, ast.Call)
        for a in call.args
        if isinstance(a, ast.Constant) and isinstance(a.value, str)
    }


def _reads_global(module, old, glob):
    """Whether the module may read the old module's global by name: an attribute of that name, or an import of it."""
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Attribute) and node.attr == glob:
            return True
        if isinstance(node, ast.ImportFrom) and module.absolute(node.level, node.module) == old.name and any(a.name == glob for a in node.names):
            return True
    return False


def _patched_globals(module, old, dest_name, name, globals_read, still_read, edits, unsure):
    """A string naming a global of the old module that the moved code reads (`mock.patch("pkg.old.get_handle")`)
    patches the old module's binding, which the moved code no longer reads: it is pointed at the new module's binding
    when nothing else reads that global from the old module, and listed otherwise (one patch cannot reach both).
    `"pkg.old.g.attr"` patches an attribute of the object itself, which both modules share: nothing to do."""
    wanted = {"%s.%s" % (old.name, g): g for g in sorted(set(globals_read))}
    if not wanted:
        return
    positions = None
    # Call arguments only, the shape of a patch target (`patch("m.x")`, `setattr`-like helpers): an annotation or a
    # docstring naming the global means the object, which the move does not change.
    arguments = [a for call in ast.walk(module.tree) if isinstance(call, ast.Call) for a in call.args]
    for node in arguments:
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in wanted):
            continue
        glob = wanted[node.value]
        if glob in still_read:
            message = "a string names %s, which the moved %s reads and other code reads from %s too: a patch of it no longer reaches %s in its new module" % (node.value, name, old.name, name)
            unsure.append(_unsure(module, node, "string_mention", message))
            continue
        positions = positions or Positions(module.src.data)
        span = string_content_span(positions, node)
        if span is None:
            unsure.append(_unsure(module, node, "string_mention", "a string names %s, which the moved %s reads" % (node.value, name)))
        else:
            edits.append(module.edit(span[0], span[1], "%s.%s" % (dest_name, glob)))


def _relative_or_absolute(module, level, dest_name):
    """The module text for an import of dest_name: relative when the original was and it stays in the package."""
    if level == 0 or not module.package:
        return dest_name
    parts = module.package.split(".")
    for up in range(len(parts), 0, -1):
        base = ".".join(parts[:up])
        if dest_name == base or dest_name.startswith(base + "."):
            dots = "." * (len(parts) - up + 1)
            return dots + dest_name[len(base) + 1 :]
    return dest_name


def _rewrite_file(module, old, dest_name, name, keep, edits, unsure, patched=frozenset()):
    src = module.src
    aliases = set()  # names bound to the old module
    dotted = None  # `import pkg.old`: the dotted path reaching it
    brought = []  # (import statement, the name or dotted path it binds to the old module)
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ImportFrom):
            base = module.absolute(node.level, node.module)
            # Kept in the old module (--keep-reexport, or because of this very import), the star import still brings it.
            if base == old.name and any(a.name == "*" for a in node.names) and old.star_exports(name) and not keep:
                unsure.append(_unsure(module, node, "unresolved", "a star import of %s may have brought %s" % (old.name, name)))
            if base == old.name:
                alias = next((a for a in node.names if a.name == name), None)
                if alias is None:
                    continue
                target = _relative_or_absolute(module, node.level, dest_name)
                text = "from %s import %s%s" % (target, name, " as %s" % alias.asname if alias.asname else "")
                if len(node.names) == 1:
                    start = src.span(node)[0] + len("from")
                    head = src.data[start:].split(b"import", 1)[0]
                    mid = start + len(head) - len(head.lstrip())
                    edits.append(module.edit(mid, start + len(head.rstrip()), target))
                else:
                    edits.extend(drop_alias(module, node, name, text))
            elif base is not None:
                for a in node.names:
                    if base and "%s.%s" % (base, a.name) == old.name:
                        aliases.add(a.asname or a.name)
                        brought.append((node, a.asname or a.name))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name == old.name and a.asname:
                    aliases.add(a.asname)
                    brought.append((node, a.asname))
                elif a.name == old.name or (a.name.startswith(old.name + ".") and not a.asname):
                    dotted = old.name
                    brought.append((node, old.name))
                elif old.name.startswith(a.name + "."):
                    # `import simplejson as json` then `json.decoder.JSONDecoder`: the package reaches the old module.
                    aliases.add((a.asname or a.name) + old.name[len(a.name) :])
                    brought.append((node, (a.asname or a.name) + old.name[len(a.name) :]))
    _attribute_uses(module, old, dest_name, name, aliases, dotted, edits, unsure, brought)
    _refuse_patched_alias(module, old, name, aliases, patched)
    _strings(module, old, dest_name, name, edits, unsure)


def dotted_path(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id] + parts[::-1])
    return None


def _import_new(module, brought, uses, name, line):
    """The import of the new module: at the top with the others, unless every import through which a use reached the
    old one is lazy (inside a function, or in an `if`/`try` branch): then beside each, so the new module is not loaded
    earlier or on another branch than the old one was (simplejson imports a Python 2 fallback in an `except` branch)."""
    used = {dotted_path(node)[: -len(name) - 1] for node in uses}
    stmts = {stmt for stmt, prefix in brought if prefix in used}
    if not stmts or any(stmt in module.tree.body for stmt in stmts):
        return [module.insert_import(line)]
    beside = [module.insert_import_after(stmt, line) for stmt in sorted(stmts, key=lambda s: module.src.span(s)[0])]
    return beside if all(beside) else [module.insert_import(line)]


def _attribute_uses(module, old, dest_name, name, aliases, dotted, edits, unsure, brought=()):
    src = module.src
    prefixes = {a + "." for a in aliases} | ({dotted + "."} if dotted else set())
    if not prefixes:
        return
    uses = []
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Attribute):
            text = dotted_path(node)
            if text is None:
                continue
            if any(text == p + name for p in prefixes):
                uses.append(node)
            elif any(text == p + "__dict__" for p in prefixes):
                unsure.append(_unsure(module, node, "module_dict", "%s: the old module's namespace is read directly" % text))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr", "hasattr", "delattr"):
            args = node.args
            if len(args) >= 2 and dotted_path(args[0]) and dotted_path(args[0]) + "." in prefixes and isinstance(args[1], ast.Constant) and args[1].value == name:
                unsure.append(_unsure(module, node, "dynamic_getattr", "%s reads %s by a string" % (node.func.id, name)))
    if not uses:
        return
    rebinds = any(
        (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == name) or (isinstance(n, ast.arg) and n.arg == name)
        for n in ast.walk(module.tree)
    ) or (name in module.top_bindings and not module.imports_from(name, old.name))
    if rebinds:
        # `_validators.ref` where the file also has a local `ref`: the bare name would mean that, so the use goes
        # through the new module as it went through the old (`sweep_moved.ref`), under a name the file leaves free.
        package, _, leaf = dest_name.rpartition(".")
        taken = leaf in module.top_bindings or any(
            (isinstance(n, ast.Name) and n.id == leaf) or (isinstance(n, ast.arg) and n.arg == leaf) or (isinstance(n, ast.alias) and (n.asname or n.name).split(".")[0] == leaf)
            for n in ast.walk(module.tree)
        )
        if taken:
            for node in uses:
                unsure.append(_unsure(module, node, "unresolved", "%s is bound to something else in this file, and so is %s; rewrite %s by hand" % (name, leaf, dotted_path(node))))
            return
        for node in uses:
            edits.append(module.edit(*src.span(node), "%s.%s" % (leaf, name)))
        edits.extend(_import_new(module, brought, uses, name, "from %s import %s" % (package, leaf) if package else "import %s" % leaf))
        return
    for node in uses:
        edits.append(module.edit(*src.span(node), name))
    if not module.imports_from(name, old.name) and not module.imports_from(name, dest_name):
        edits.extend(_import_new(module, brought, uses, name, "from %s import %s" % (dest_name, name)))


def _refuse_patched_alias(module, old, name, aliases, patched):
    """`patch("pkg.user.old")` replaces the old module, as `user` binds it, with a mock; `old.NAME` in `user` then reads
    the mock's NAME, and the rewritten read of the moved name no longer would (colorama's winterm tests patch
    `colorama.winterm.win32` and compare the calls with `mockWin32.STDERR`). No edit keeps both, so the move is refused."""
    for alias in sorted(aliases):
        target = "%s.%s" % (module.name, alias)
        if target not in patched:
            continue
        use = next((n for n in ast.walk(module.tree) if isinstance(n, ast.Attribute) and n.attr == name and dotted_path(n) == "%s.%s" % (alias, name)), None)
        if use is None:
            continue
        where = "%s:%d:%d" % (module.path, use.lineno, use.col_offset + 1)
        message = "%s reads %s.%s, and a test replaces %s there with a mock (a call with the string %r): after the move that read would no longer go through the mock" % (
            where, alias, name, alias, target)
        # `use`, not line/col: those would locate the refusal in the moved symbol's file.
        raise Refused("UnsafeRefactor", message, {"reason": "module patched in tests", "use": where, "target": target})


def _strings(module, old, dest_name, name, edits, unsure):
    """A string annotation naming the old path gets the new one; any other string naming it is reported (a
    mock.patch target, for one, may mean the old module's binding on purpose)."""
    src = module.src
    full = "%s.%s" % (old.name, name)
    positions = Positions(src.data)
    annotations = set()
    for node in ast.walk(module.tree):
        for part in (getattr(node, "annotation", None), getattr(node, "returns", None)):
            if isinstance(part, ast.Constant):
                annotations.add(id(part))
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and full in node.value:
            span = string_content_span(positions, node)
            if node.value == full and span is not None and id(node) in annotations:
                edits.append(module.edit(span[0], span[1], "%s.%s" % (dest_name, name)))
            else:
                unsure.append(_unsure(module, node, "string_mention", "a string names %s" % full))


def _unsure(module, node, reason, message):
    line, col = node.lineno, node.col_offset + 1
    text = module.src.slice(*module.src.span(node)).splitlines()[0][:80]
    return {"file": module.path, "line": line, "col": col, "text": text, "reason": reason, "message": message}
