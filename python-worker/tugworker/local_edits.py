# Shared ground of the single-file refactors (extract-variable, inline of a local): byte offsets of AST nodes, parents,
# scopes and the refusals they raise. Offsets are UTF-8 byte offsets into the file, as everywhere in tug.
import ast
import keyword
import unicodedata


class Refused(Exception):
    """The refactor cannot be done here without changing what the code does (or the selection is not one thing)."""

    def __init__(self, code, message, details=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}


class Source:
    """The file as bytes with line starts, and its tree with byte spans and parent links."""

    def __init__(self, content):
        self.text = content
        self.data = content.encode("utf-8")
        # A byte-order mark is not part of line 1 (Python skips it; columns there count from after it).
        bom = content.startswith("\ufeff")
        self.starts = [3 if bom else 0]
        for index, byte in enumerate(self.data):
            if byte == 0x0A:
                self.starts.append(index + 1)
        try:
            self.tree = ast.parse(content[1:] if bom else content)
        except SyntaxError as error:
            raise Refused("SourceSyntaxError", "the file does not parse: %s" % error.msg, {"line": error.lineno, "col": error.offset})
        self.parent = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node

    def offset(self, line, col):
        return self.starts[line - 1] + col

    def span(self, node):
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)

    def slice(self, start, end):
        return self.data[start:end].decode("utf-8")

    def position(self, offset):
        line = max(i for i, start in enumerate(self.starts) if start <= offset)
        return line + 1, offset - self.starts[line] + 1

    def line_start(self, offset):
        return self.starts[max(i for i, start in enumerate(self.starts) if start <= offset)]

    def indentation_before(self, node):
        """The whitespace that starts the node's line, or None when something else comes first on that line."""
        start = self.offset(node.lineno, 0)
        before = self.data[start : self.offset(node.lineno, node.col_offset)]
        return before.decode("utf-8") if before.strip() == b"" else None

    def newline(self, offset):
        """The line ending of the line holding offset (a CRLF file gets CRLF lines)."""
        end = self.data.find(b"\n", offset)
        if end < 0:
            return "\r\n" if b"\r\n" in self.data else "\n"
        return "\r\n" if self.data[end - 1 : end] == b"\r" else "\n"

    def ancestors(self, node):
        while node in self.parent:
            node = self.parent[node]
            yield node

    def statement_of(self, node):
        for candidate in [node, *self.ancestors(node)]:
            if isinstance(candidate, ast.stmt):
                return candidate
        return None

    def scope_of(self, node):
        """The function, lambda, class, comprehension or module whose names the node reads."""
        for candidate in self.ancestors(node):
            if isinstance(candidate, SCOPES):
                return candidate
        return self.tree


SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Module)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
EFFECTS = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)


def has_effects(node):
    """Whether evaluating the node may do something besides giving a value (calls, await, yield, walrus)."""
    return any(isinstance(n, EFFECTS) for n in ast.walk(node))


def own_nodes(scope):
    """The nodes of a scope, without descending into the scopes nested in it (their names are their own)."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, SCOPES):
            stack.extend(ast.iter_child_nodes(node))


def check_identifier(name):
    """The name as Python reads it: the tokenizer NFKC-normalises identifiers, so `ｘ` is x and must be compared as x."""
    normalized = unicodedata.normalize("NFKC", name)
    if not name.isidentifier() or not normalized.isidentifier() or keyword.iskeyword(normalized):
        raise Refused("InvalidArgument", "%r is not a Python identifier" % name, {"argument": "new_name", "reason": "not an identifier"})
    return normalized


def names_in(scope):
    """Every name the scope binds or reads (nested scopes' reads included: a new local must not shadow them)."""
    found = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, ast.alias):
            found.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            found.update(node.names)
    return found


def trimmed(source, start, end):
    """A selection's byte range without the whitespace around it."""
    text = source.data
    while start < end and text[start : start + 1].isspace():
        start += 1
    while end > start and text[end - 1 : end].isspace():
        end -= 1
    return start, end


def short(source, node):
    """The node's text on one line, cut to 60 characters: how a warning or refusal names a call."""
    text = " ".join(source.slice(*source.span(node)).split())
    return text if len(text) <= 60 else text[:57] + "..."


def edit(source, start, end, new_text):
    return {"span": [start, end], "old_text": source.slice(start, end), "new_text": new_text}
