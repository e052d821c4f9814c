# move-symbol's view of one module: its imports, top-level bindings and __all__, and the edits that change them.
import ast
import re

from tugworker.local_edits import Source


def import_line(carried):
    """`("import", "a.b", "c")` → `import a.b as c`; `("from", "m", [("x", None)])` → `from m import x`."""
    if carried[0] == "import":
        return "import %s%s" % (carried[1], " as %s" % carried[2] if carried[2] else "")
    names = ", ".join(n + (" as %s" % a if a else "") for n, a in carried[2])
    return "from %s import %s" % (carried[1], names)


def spell_import(line, package, relative):
    """`from pkg.sub import x` as `from .sub import x` inside package pkg (`from ..money import x` from a subpackage),
    where the module imports relatively; a module of another top-level package stays absolute."""
    match = re.match(r"from (\w[\w.]*) import ", line)
    if not relative or not package or match is None:
        return line
    here, there = package.split("."), match.group(1).split(".")
    common = 0
    while common < min(len(here), len(there)) and here[common] == there[common]:
        common += 1
    if common == 0:
        return line
    local = "." * (len(here) - common + 1) + ".".join(there[common:])
    return "from %s import %s" % (local, line[match.end() :])


class Module:
    def __init__(self, entry):
        self.path = entry["path"]
        self.name = entry.get("module") or ""
        self.src = Source(entry["content"])
        self.tree = self.src.tree
        self.package = self.name if self.path.rsplit("/", 1)[-1].startswith("__init__.") else self.name.rpartition(".")[0]
        self.top_bindings = {}
        for stmt in self.tree.body:
            for bound in _bindings(stmt):
                self.top_bindings.setdefault(bound, stmt.lineno)
        # Bound at import time inside a block (`try: from msvcrt import f` / `except ImportError: def f(...)`), so
        # importable from the module; not under `if TYPE_CHECKING:`, which binds nothing when the program runs.
        self.block_bindings = set()
        for stmt in self.tree.body:
            if not _bindings(stmt):
                self.block_bindings.update(_block_bindings(stmt))

    def absolute(self, level, module):
        if level == 0:
            return module or ""
        base = self.package.split(".") if self.package else []
        if level - 1 > len(base):
            return None
        base = base[: len(base) - (level - 1)]
        return ".".join(base + ([module] if module else []))

    def _top_imports(self):
        return [s for s in self.tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]

    def import_origin(self, name):
        """How the module imports `name` at top level, as a carried import with an absolute module, or None."""
        for stmt in self._top_imports():
            for alias in stmt.names:
                if isinstance(stmt, ast.Import):
                    bound = alias.asname or alias.name.split(".")[0]
                    if bound == name:
                        return ("import", alias.name, alias.asname)
                elif (alias.asname or alias.name) == name:
                    return ("from", self.absolute(stmt.level, stmt.module), [(alias.name, alias.asname)])
        return None

    def has_import(self, carried):
        bound = [a or n for n, a in carried[2]] if carried[0] == "from" else [carried[2] or carried[1].split(".")[0]]
        return all(self.import_origin(b) == _single(carried, b) for b in bound)

    def imports_from(self, name, module):
        origin = self.import_origin(name)
        return origin is not None and origin[0] == "from" and origin[1] == module and origin[2][0][0] == name

    def imports_module(self, module):
        """Whether a top-level import of this module runs `module` (import m, from m import x, from parent import m)."""
        for stmt in self._top_imports():
            if isinstance(stmt, ast.Import):
                if any(a.name == module or a.name.startswith(module + ".") for a in stmt.names):
                    return True
            else:
                base = self.absolute(stmt.level, stmt.module)
                if base == module or any(base and "%s.%s" % (base, a.name) == module for a in stmt.names):
                    return True
        return False

    def reads_outside(self, name, skip):
        inside = set(map(id, ast.walk(skip)))
        return any(isinstance(n, ast.Name) and n.id == name and id(n) not in inside for n in ast.walk(self.tree))

    def edit(self, start, end, text):
        return {"path": self.path, "span": [start, end], "old_text": self.src.slice(start, end), "new_text": text}

    def import_point(self):
        """Where a new top-level import goes: after the last top-level import, else after the docstring, else the top."""
        body = self.tree.body
        last = None
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                last = stmt
            elif last is not None or not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and stmt is body[0]):
                break
            else:
                last = stmt
        if last is None:
            return self.src.starts[0]  # after a byte order mark
        return self.src.starts[last.end_lineno] if last.end_lineno < len(self.src.starts) else len(self.src.data)

    def prefers_relative(self):
        """Whether the module imports from its own package relatively (`from .sub import x`): new imports do too."""
        return any(isinstance(s, ast.ImportFrom) and s.level > 0 for s in self._top_imports())

    def spell(self, lines):
        relative = self.prefers_relative()
        return "\n".join(spell_import(line, self.package, relative) for line in lines.split("\n"))

    def insert_import(self, line):
        line = self.spell(line)
        at = self.import_point()
        prefix = "\n" if at > self.src.starts[0] and not self.src.data[:at].endswith(b"\n") else ""
        # The first import of a module: a blank line keeps it apart from the code that follows.
        first = not any(isinstance(s, (ast.Import, ast.ImportFrom)) for s in self.tree.body)
        return self.edit(at, at, prefix + line + "\n" + ("\n" if first else ""))

    def insert_import_after(self, stmt, line):
        """A new import right after `stmt`, an import that is not a plain top-level statement (one inside a function or
        an `except` branch), at its indentation: the new module is then loaded when and where the old one was."""
        line = self.spell(line)
        start = self.src.span(stmt)[0]
        line_start = self.src.data.rfind(b"\n", 0, start) + 1
        indent = self.src.data[line_start:start].decode("utf-8")
        end = self.src.span(stmt)[1]
        if indent.strip():
            return None  # `try: import old`: no line of its own to follow
        return self.edit(end, end, "\n" + indent + line)

    def all_list(self):
        for stmt in self.tree.body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets):
                if isinstance(stmt.value, (ast.List, ast.Tuple)):
                    return stmt.value
        return None

    def star_exports(self, name):
        """Whether `from <this module> import *` brings name: a literal __all__ says, when nothing else touches it;
        an __all__ built or extended some other way may hold anything; without one, the public names."""
        mentions = sum(1 for node in ast.walk(self.tree) if isinstance(node, ast.Name) and node.id == "__all__")
        listed = self.all_list()
        if listed is not None and mentions == 1:
            return any(isinstance(e, ast.Constant) and e.value == name for e in listed.elts)
        return mentions > 0 or not name.startswith("_")

    def drop_from_all(self, name):
        listed = self.all_list()
        if listed is None:
            return []
        for index, element in enumerate(listed.elts):
            if isinstance(element, ast.Constant) and element.value == name:
                return [self.edit(*self._element_cut(listed.elts, index), "")]
        return []

    def _element_cut(self, elements, index):
        """The bytes that take one element out of a list: it and the separator after it (before it when last). The
        only element goes with a comma that follows it, so `['x',]` and `('x',)` become `[]` and `()`, not `[,]`."""
        start, end = self.src.span(elements[index])
        if index + 1 < len(elements):
            return start, self.src.span(elements[index + 1])[0]
        if index > 0:
            return self.src.span(elements[index - 1])[1], end
        data = self.src.data
        at = end
        while at < len(data) and data[at:at + 1] in (b" ", b"\t"):
            at += 1
        return start, at + 1 if data[at:at + 1] == b"," else end

    def receive(self, name, moved, imports, old_name):
        """Edits that add the moved block (and its imports) to this existing module."""
        edits = []
        data = self.src.data
        for stmt in self._top_imports():
            if isinstance(stmt, ast.ImportFrom) and self.absolute(stmt.level, stmt.module) == old_name:
                edits.extend(drop_alias(self, stmt, name, replacement=None))
        lines = "".join(self.spell(import_line(c)) + "\n" for c in imports)
        end = len(data)
        gap = "" if not data.strip() else "\n\n" if data.endswith(b"\n") else "\n\n\n"
        if lines and self.import_point() == end:
            edits.append(self.edit(end, end, lines + gap + moved))
        else:
            if lines:
                edits.append(self.insert_import(lines.rstrip("\n")))
            edits.append(self.edit(end, end, gap + moved))
        listed = self.all_list()
        if listed is not None and not any(isinstance(e, ast.Constant) and e.value == name for e in listed.elts):
            quote = "'" if listed.elts and self.src.slice(*self.src.span(listed.elts[-1])).startswith("'") else '"'
            if listed.elts:
                after = self.src.span(listed.elts[-1])[1]
                edits.append(self.edit(after, after, ", %s%s%s" % (quote, name, quote)))
            else:
                inner = self.src.span(listed)[0] + 1
                edits.append(self.edit(inner, inner, "%s%s%s" % (quote, name, quote)))
        return edits


def _single(carried, bound):
    if carried[0] == "import":
        return carried
    for n, a in carried[2]:
        if (a or n) == bound:
            return ("from", carried[1], [(n, a)])
    return None


def _bindings(stmt):
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [a.asname or a.name.split(".")[0] for a in stmt.names if a.name != "*"]
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def _block_bindings(stmt):
    if isinstance(stmt, ast.If) and "TYPE_CHECKING" in ast.unparse(stmt.test):
        return _blocks_bindings(stmt.orelse)
    parts = []
    for field in ("body", "orelse", "finalbody"):
        parts.extend(getattr(stmt, field, None) or [])
    for handler in getattr(stmt, "handlers", None) or []:
        parts.extend(handler.body)
    return _blocks_bindings(parts) if isinstance(stmt, (ast.If, ast.Try, ast.With, ast.For, ast.While)) or type(stmt).__name__ == "TryStar" else []


def _blocks_bindings(stmts):
    names = []
    for stmt in stmts:
        names.extend(_bindings(stmt) or _block_bindings(stmt))
    return names


def drop_alias(module, stmt, name, replacement):
    """Edits that take `name` out of a from-import (the whole statement when it is the only one) and, with a
    replacement statement, put that on a line of its own after it."""
    src = module.src
    index = next((i for i, a in enumerate(stmt.names) if a.name == name), None)
    if index is None:
        return []
    stmt_start, stmt_end = src.span(stmt)
    indent = src.slice(src.line_start(stmt_start), stmt_start)
    if len(stmt.names) == 1:
        if replacement is not None:
            return [module.edit(stmt_start, stmt_end, replacement)]
        line_end = src.starts[stmt.end_lineno] if stmt.end_lineno < len(src.starts) else len(src.data)
        return [module.edit(src.line_start(stmt_start), line_end, "")]
    aliases = stmt.names
    spans = [(src.offset(a.lineno, a.col_offset), src.offset(a.end_lineno, a.end_col_offset)) for a in aliases]
    start, end = spans[index]
    cut = (start, spans[index + 1][0]) if index + 1 < len(aliases) else (spans[index - 1][1], end)
    edits = [module.edit(cut[0], cut[1], "")]
    if replacement is not None:
        edits.append(module.edit(stmt_end, stmt_end, "\n" + indent + replacement))
    return edits
