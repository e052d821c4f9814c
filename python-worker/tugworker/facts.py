# Facts of one Python file: parse with the stdlib ast (fast), walk scopes, resolve every name use, describe expressions.
import ast
import builtins
import re
import sys

from tugworker.positions import Positions
from tugworker.scopes import ScopeWalker, _Item, _Iteration

BUILTINS = set(dir(builtins))


class SourceSyntaxError(Exception):
    def __init__(self, message, line, col):
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


def extract_facts(content):
    data = content.encode("utf-8")
    try:
        tree = ast.parse(data, type_comments=False)
    except SyntaxError as error:
        raise SourceSyntaxError(error.msg, error.lineno, error.offset)
    except ValueError as error:
        raise SourceSyntaxError(str(error), None, None)
    positions = Positions(data)
    walker = ScopeWalker(positions)
    walker.visit(tree)
    references = _resolve(walker)
    describe = _Describer(walker)
    # Each fact gets "line" and "col" after its keys (what dict.update(positions.loc(span)) gave), without the dict.
    line_col = positions.line_col
    for binding in walker.bindings:
        binding["symbol"] = walker.first_site[(binding["scope"], binding["name"])]
        binding["line"], binding["col"] = line_col(binding["span"][0])
        binding["type_hint"] = describe.annotation(binding["type_hint"])
        binding["value"] = describe(binding["value"])
    for attribute in walker.attributes:
        attribute["line"], attribute["col"] = line_col(attribute["span"][0])
        attribute["receiver"] = describe(attribute["receiver"])
        if "value" in attribute:
            attribute["type_hint"] = describe.annotation(attribute["type_hint"])
            attribute["value"] = describe(attribute["value"])
    for call in walker.calls:
        call["line"], call["col"] = line_col(call["span"][0])
        call["callee"] = describe(call["callee"])
        if "args" in call:
            call["args"] = [describe(a) for a in call["args"]]
    for cls in walker.classes:
        cls["bases"] = [describe(b) for b in cls["bases"]]
        cls["decorators"] = [describe(d) for d in cls["decorators"]]
    for function in walker.functions:
        function["decorators"] = [describe(d) for d in function["decorators"]]
        function["returns"] = describe.annotation(function["returns"])
        if "makes" in function:
            function["makes"] = describe(function["makes"])
    for dynamic in walker.dynamic:
        dynamic["line"], dynamic["col"] = line_col(dynamic["span"][0])
    for function in walker.functions:
        name = walker.bindings[function["binding"]]["name"]
        if name in ("__getattr__", "__getattribute__"):
            binding = walker.bindings[function["binding"]]
            walker.dynamic.append({"kind": name, "span": binding["span"], "line": binding["line"], "col": binding["col"], "name_arg": None})
    return {
        "scopes": walker.scopes,
        "bindings": walker.bindings,
        "references": references,
        "params": walker.params,
        "imports": walker.imports,
        "attributes": walker.attributes,
        "calls": walker.calls,
        "classes": walker.classes,
        "functions": walker.functions,
        "all": walker.all_entries,
        "strings": walker.strings,
        "comments": _comments(data, positions),
        "dynamic": walker.dynamic,
    }


def _comments(data, positions):
    """Comments with byte spans."""
    if b"#" not in data:
        return []
    found = _scanned_comments(data)
    return found if found is not None else _tokenized_comments(data, positions)


# Line breaks other than \n and \r\n, which str.splitlines honours but tokenize does not.
_ODD_BREAKS = (b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9")

# A comment, or a whole string literal (so that a `#` inside one is skipped). String prefixes need no care:
# they are letters, and where a literal ends does not depend on them (in raw strings too, a backslash keeps
# the next quote from ending it). An unterminated literal cannot occur, as the file parsed.
_COMMENT_OR_STRING = re.compile(
    rb"#[^\r\n]*"
    rb"|'''[^'\\]*(?:(?:\\(?:\r\n|.)|'(?!''))[^'\\]*)*'''"
    rb'|"""[^"\\]*(?:(?:\\(?:\r\n|.)|"(?!""))[^"\\]*)*"""'
    rb"|'[^'\\\r\n]*(?:\\(?:\r\n|.)[^'\\\r\n]*)*'"
    rb'|"[^"\\\r\n]*(?:\\(?:\r\n|.)[^"\\\r\n]*)*"',
    re.DOTALL,
)


def _scanned_comments(data):
    """Comments from one regex scan for comments and string literals, several times faster than the tokenize
    module before Python 3.12; the file parsed, so outside literals a `#` always starts a comment. None (use
    the tokenizer) from 3.12 on, where an f-string may nest quotes of its own kind, for line breaks that the
    tokenizer counts differently, and when the file may declare an encoding other than UTF-8."""
    if sys.version_info >= (3, 12):
        return None
    if any(b in data for b in _ODD_BREAKS) or data.count(b"\r") != data.count(b"\r\n"):
        return None
    if b"coding" in b"\n".join(data.split(b"\n", 2)[:2]) and not _declares_utf8(data):
        return None
    comments = []
    for match in _COMMENT_OR_STRING.finditer(data):
        if data[match.start()] == 0x23:
            comments.append({"span": [match.start(), match.end()], "text": match.group().decode("utf-8")})
    return comments


# PEP 263's encoding declaration, as the tokenizer finds it on one of the first two lines.
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def _declares_utf8(data):
    """Whether every mention of "coding" on the first two lines is a declaration of UTF-8 (`# -*- coding: utf-8 -*-`,
    on 4% of the files of a real tree), which changes nothing: the text reached the worker as UTF-8. Anything else
    (another encoding, "coding" in a docstring) goes to the tokenizer, as before."""
    for line in data.split(b"\n", 2)[:2]:
        if b"coding" not in line:
            continue
        match = _CODING.match(line)
        name = match.group(1)[:12].lower().replace(b"_", b"-").decode("ascii", "replace") if match else ""
        if name not in ("utf-8", "utf8") and not name.startswith("utf-8-"):
            return False
    return True


def _tokenized_comments(data, positions):
    """Comment tokens from the tokenizer (its columns count characters, so convert per line)."""
    import io
    import tokenize

    comments = []
    try:
        tokens = list(tokenize.tokenize(io.BytesIO(data).readline))
    except (tokenize.TokenError, SyntaxError):
        return comments
    lines = data.decode("utf-8-sig").splitlines(keepends=True)
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        row, col = token.start
        line = lines[row - 1] if row - 1 < len(lines) else ""
        start = positions.offset(row, len(line[:col].encode("utf-8")))
        comments.append({"span": [start, start + len(token.string.encode("utf-8"))], "text": token.string})
    return comments


def _resolve(walker):
    """Python's lookup: local (a name bound anywhere in a function is local throughout), enclosing functions
    (class bodies are skipped), module, builtins; `global` and `nonlocal` redirect."""
    walker.first_site = {}
    bound = {}
    for binding in walker.bindings:
        key = (binding["scope"], binding["name"])
        walker.first_site.setdefault(key, binding["id"])
        bound.setdefault(binding["scope"], {}).setdefault(binding["name"], binding["id"])
    references = []
    line_col = walker.pos.line_col
    for use in walker.uses:
        reference = dict(use)
        reference["line"], reference["col"] = line_col(use["span"][0])
        reference["resolved"] = _lookup(use["name"], use["scope"], walker, bound)
        references.append(reference)
    return references


# A function of the module, not a closure of _resolve: a closure that calls itself is a reference cycle, which held
# each file's walker (its scopes, uses and bindings) until the next cycle collection, paused during a batch
# (docs/PERFORMANCE.md, issue 33, pyfacts helper).
def _lookup(name, scope_id, walker, bound):
    declared = walker.declared[scope_id]
    if name in declared["global"]:
        return _module_lookup(name, bound)
    if scope_id == 0:
        site = bound.get(0, {}).get(name)
        if site is not None:
            return {"binding": site}
        return {"builtin": name} if name in BUILTINS else {"unresolved": name}
    if name in bound.get(scope_id, {}) and name not in declared["nonlocal"]:
        return {"binding": bound[scope_id][name]}
    scopes = walker.scopes
    parent = scopes[scope_id]["parent"]
    while parent is not None and parent != 0:
        scope = scopes[parent]
        if scope["kind"] != "class":
            if name in walker.declared[parent]["global"]:
                return _module_lookup(name, bound)
            if name in bound.get(parent, {}):
                return {"binding": bound[parent][name]}
        parent = scope["parent"]
    return _lookup(name, 0, walker, bound)


def _module_lookup(name, bound):
    """The module scope (id 0) answers for a `global` name."""
    site = bound.get(0, {}).get(name)
    return {"binding": site} if site is not None else {"global": name}


class _Describer:
    """Turns ast expressions into the small JSON trees the TS side reasons about."""

    def __init__(self, walker):
        self.walker = walker

    def annotation(self, node):
        """An annotation; a string one ("tuple[A, B | None]") is described as the expression it holds, its names
        without a reference (they are looked up in the module, where string annotations are evaluated)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                parsed = ast.parse(node.value.strip(), mode="eval").body
            except SyntaxError:
                return self(node)
            if not isinstance(parsed, ast.Constant):
                return self(parsed)
        return self(node)

    def __call__(self, node, depth=0):
        if node is None:
            return None
        if depth > 8:
            return {"k": "other"}
        w = self.walker
        if node.__class__ is ast.Name:
            # The most common case first, by exact class (the isinstance chain below answers the same for it).
            ref = w.use_of_node.get(id(node))
            return {"k": "name", "name": node.id} if ref is None else {"k": "name", "name": node.id, "ref": ref}
        if isinstance(node, _Item):
            return {"k": "item", "of": self(node.value, depth + 1), "index": node.index}
        if isinstance(node, _Iteration):
            return {"k": "iter", "of": self(node.iterable, depth + 1)}
        if isinstance(node, ast.Name):
            out = {"k": "name", "name": node.id}
            if id(node) in w.use_of_node:
                out["ref"] = w.use_of_node[id(node)]
            return out
        if isinstance(node, ast.Attribute):
            out = {"k": "attr", "value": self(node.value, depth + 1), "attr": node.attr}
            if id(node) in w.attr_of_node:
                out["ref"] = w.attr_of_node[id(node)]
            return out
        if isinstance(node, ast.Call):
            out = {"k": "call", "func": self(node.func, depth + 1)}
            if isinstance(node.func, ast.Name) and node.func.id == "super" and node.args:
                out["args"] = [self(a, depth + 1) for a in node.args[:2]]
            return out
        if isinstance(node, ast.Subscript):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return {"k": "subscript", "value": self(node.value, depth + 1), "slice": [self(p, depth + 1) for p in parts]}
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return {"k": "binop_or", "left": self(node.left, depth + 1), "right": self(node.right, depth + 1)}
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            start, end = w.pos.node_span(node)
            return {"k": "str", "value": node.value, "span": [start, end]}
        if isinstance(node, ast.Constant):
            return {"k": "const"}
        return {"k": "other"}
