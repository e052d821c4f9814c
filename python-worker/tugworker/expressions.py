# Expression facts: attribute accesses, calls with keyword names, string forward references, __all__ and dynamic patterns.
import ast
import re

from tugworker.positions import string_content_span

DYNAMIC_CALLS = {"getattr", "setattr", "hasattr", "delattr", "eval", "exec", "globals", "locals", "vars", "__import__"}
# Calls whose first arguments the analysis reads: super(C, self), partial(f, …), and the record copiers
# dataclasses.replace(obj, …) / attrs.evolve(obj, …), whose keywords name fields of obj's class (record-fields.ts).
ARGUMENT_CALLS = {"super", "partial", "replace", "evolve"}
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


def visit_Attribute(self, node):
    self.visit(node.value)
    end = self.pos.offset(node.end_lineno, node.end_col_offset)
    span = [end - len(node.attr.encode("utf-8")), end]
    ctx = "store" if isinstance(node.ctx, ast.Store) else "del" if isinstance(node.ctx, ast.Del) else "load"
    self.attr_of_node[id(node)] = len(self.attributes)
    self.attributes.append({"attr": node.attr, "span": span, "ctx": ctx, "receiver": node.value, "scope": self.scope})


def visit_Call(self, node):
    self.visit(node.func)
    for arg in node.args:
        self.visit(arg)
    keywords = []
    splat = None
    for keyword in node.keywords:
        if keyword.arg is None and isinstance(keyword.value, ast.Dict):
            # Literal keys of `**{"flush": x}` are keyword names, not free strings.
            self.keyword_keys.update(id(k) for k in keyword.value.keys if k is not None)
        self.visit(keyword.value)
        if keyword.arg is not None:
            start = self.pos.offset(keyword.lineno, keyword.col_offset)
            keywords.append({"name": keyword.arg, "span": [start, start + len(keyword.arg.encode("utf-8"))]})
        elif isinstance(keyword.value, ast.Dict):
            keywords.extend(_dict_keywords(self, keyword.value))
        elif splat is None:
            # `**mapping` whose keys are not written here: any keyword may pass through it.
            splat = self.pos.node_span(keyword.value)
    call = {"callee": node.func, "span": self.pos.node_span(node), "scope": self.scope, "keywords": keywords}
    if splat is not None:
        call["splat"] = splat
    if _plain_name(node.func) in ARGUMENT_CALLS and node.args:
        call["args"] = node.args[:2]
    self.calls.append(call)
    callee = node.func.id if isinstance(node.func, ast.Name) else None
    if isinstance(node.func, ast.Attribute) and node.func.attr == "import_module":
        callee = "importlib"
    if callee in DYNAMIC_CALLS or callee == "importlib":
        index = 0 if callee in ("__import__", "importlib") else 1
        arg = node.args[index] if len(node.args) > index else None
        name = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
        self.dynamic.append({"kind": callee, "span": self.pos.node_span(node), "name_arg": name})


def visit_Constant(self, node):
    if isinstance(node.value, str) and id(node) not in self.keyword_keys and IDENTIFIER.match(node.value) and len(node.value) <= 200:
        inner = string_content_span(self.pos, node)
        if inner:
            self.strings.append({"value": node.value, "span": inner})


def visit_annotation(self, node):
    """Annotations are expressions, plus names inside string forward references such as "Node"."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        inner = string_content_span(self.pos, node)
        try:
            parsed = ast.parse(node.value.strip(), mode="eval") if inner else None
        except SyntaxError:
            parsed = None
        if parsed is not None:
            lead = len(node.value) - len(node.value.lstrip())
            for name in ast.walk(parsed):
                if isinstance(name, ast.Name) and name.lineno == 1:
                    start = inner[0] + lead + name.col_offset
                    self.use(name.id, [start, start + len(name.id.encode("utf-8"))], "load")
        return
    self.visit(node)


def _maybe_all(self, targets, value):
    if self.scopes[self.scope]["kind"] != "module":
        return
    if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
        return
    if not isinstance(value, (ast.List, ast.Tuple)):
        return
    entries = []
    for element in value.elts:
        if isinstance(element, ast.Constant) and isinstance(element.value, str):
            inner = string_content_span(self.pos, element)
            if inner:
                entries.append({"value": element.value, "span": inner})
    previous = self.all_entries["entries"] if self.all_entries else []
    self.all_entries = {"span": self.pos.node_span(value), "entries": previous + entries}


def _plain_name(func):
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _dict_keywords(self, mapping):
    """`f(**{"flush": x})`: the literal string keys name parameters as keywords do (marked, so a rename warns)."""
    found = []
    for key in mapping.keys:
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier():
            inner = string_content_span(self.pos, key)
            if inner:
                found.append({"name": key.value, "span": inner, "in_dict": True})
    return found
