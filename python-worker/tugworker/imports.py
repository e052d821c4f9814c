# Import statements as facts: what each binds, and the exact spans of module names and aliases for renames.
import re


def _alias_spans(walker, alias):
    start, end = walker.pos.node_span(alias)
    name_bytes = alias.name.encode("utf-8")
    name_span = [start, start + len(name_bytes)]
    if walker.pos.data[name_span[0]:name_span[1]] != name_bytes:
        # `a . b` with spaces: fall back to the written extent up to `as`.
        name_span = [start, end if alias.asname is None else start]
    asname_span = None
    if alias.asname:
        asname_bytes = alias.asname.encode("utf-8")
        asname_span = [end - len(asname_bytes), end]
    return name_span, asname_span


def visit_Import(self, node):
    names = []
    for alias in node.names:
        name_span, asname_span = _alias_spans(self, alias)
        if alias.asname:
            binding = self.bind(alias.asname, asname_span, "import")
        else:
            first = alias.name.split(".")[0]
            binding = self.bind(first, [name_span[0], name_span[0] + len(first.encode("utf-8"))], "import")
        names.append({"name": alias.name, "name_span": name_span, "asname": alias.asname, "asname_span": asname_span, "binding": binding})
    self._record_import(node, "import", None, 0, False, names)


def visit_ImportFrom(self, node):
    names = []
    star = False
    for alias in node.names:
        if alias.name == "*":
            star = True
            continue
        name_span, asname_span = _alias_spans(self, alias)
        if alias.asname:
            binding = self.bind(alias.asname, asname_span, "import")
        else:
            binding = self.bind(alias.name, name_span, "import")
        names.append({"name": alias.name, "name_span": name_span, "asname": alias.asname, "asname_span": asname_span, "binding": binding})
    self._record_import(node, "from", node.module, node.level or 0, star, names)


FROM_MODULE = re.compile(rb"from\s+(\.*)\s*([A-Za-z_][\w.]*)?")


def _module_span(walker, span, module):
    """Where the dotted module name of `from <dots><module> import …` is written, for module renames."""
    if not module:
        return None
    match = FROM_MODULE.match(walker.pos.data, span[0], span[1])
    if not match or match.group(2) is None or match.group(2).decode("utf-8") != module:
        return None
    return [match.start(2), match.end(2)]


def _record_import(self, node, kind, module, level, star, names):
    span = self.pos.node_span(node)
    line, col = self.pos.line_col(span[0])
    fact = {"kind": kind, "module": module, "level": level, "star": star, "line": line, "col": col, "span": span, "names": names, "scope": self.scope}
    if kind == "from":
        fact["module_span"] = _module_span(self, span, module)
    self.imports.append(fact)
