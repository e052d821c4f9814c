# organize-imports without ruff's WebAssembly: the same result as `ruff check --select I001,F401 --fix` (default isort
# settings) for files plain enough to prove it, and "unsupported" with a reason for the rest, which ruff then does.
# It repeats ruff's loop: find the fixes, apply those that do not overlap an earlier one, until there are none.
import ast
import re

from tugworker.import_block import Settings, Unsupported, render
from tugworker.stdlib_names import STDLIB
from tugworker.unused_imports import unused_imports

# Comments that change what ruff does to the whole file: ruff's own handling decides those files.
DIRECTIVE = re.compile(r"#\s*(?:ruff|flake8)\s*:", re.IGNORECASE)
# `# noqa` or `# noqa: CODE, CODE` opening a comment on a one-line import; anything else saying noqa is ruff's.
NOQA = re.compile(r"#\s*noqa(?::\s*([A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?(?![\w:])", re.IGNORECASE)
SKIP = re.compile(r"#\s*isort:\s?skip\b(?!_)")
IMPORTS = (ast.Import, ast.ImportFrom)
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def organize_imports(request):
    """One answer per file: its organized content, or why ruff has to do it."""
    results = []
    for file in request["files"]:
        try:
            settings = Settings(request.get("isort") or {}, list(request.get("first_party", [])), STDLIB)
            content = _organize(file["content"], settings, request.get("line_length") or 88, bool(file.get("package_init")))
            results.append({"path": file["path"], "content": content})
        except Unsupported as reason:
            results.append({"path": file["path"], "unsupported": str(reason)})
    return {"results": results}


def _organize(content, settings, line_length, package_init):
    if "\r" in content or "\f" in content or content.startswith("\ufeff"):
        raise Unsupported("line endings other than \\n, form feeds or a byte order mark")
    if DIRECTIVE.search(content):
        raise Unsupported("a ruff or flake8 directive")
    current = content
    for _ in range(20):
        fixes = _fixes(current, settings, line_length, package_init)
        # `ruff check --fix`: fixes in the order of their start, each unless it overlaps one already taken.
        fixes.sort(key=lambda fix: fix[0])
        taken = []
        for fix in fixes:
            if not any(fix[0] < other[1] and other[0] < fix[1] for other in taken):
                taken.append(fix)
        if not taken:
            return current
        # Removals that together would empty a block are taken one at a time (tug's ruff engine does the same,
        # as ruff's one fix per statement and pass does): the last one left becomes `pass`.
        emptied = {}
        for fix in taken:
            if len(fix) > 3:
                emptied[fix[3]] = emptied.get(fix[3], 0) + 1
        if any(count == size for (_, size), count in emptied.items()):
            taken = taken[:1]
        taken.sort(key=lambda fix: fix[0])
        parts, at = [], 0
        for start, end, text, *_ in taken:
            parts += [current[at:start], text]
            at = end
        current = "".join(parts) + current[at:]
    return current


class _Text:
    def __init__(self, text):
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def offset(self, line, col):
        return self.starts[line - 1] + col

    def line_end(self, line):
        """Just past the newline that ends the 1-based line (or the end of the text)."""
        return self.starts[line] if line < len(self.starts) else len(self.text)

    def end_of_line(self, offset):
        """Where the line holding `offset` ends, before its newline."""
        newline = self.text.find("\n", offset)
        return len(self.text) if newline < 0 else newline


def _fixes(text, settings, line_length, package_init):
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        raise Unsupported("the file does not parse here")
    source = _Text(text)
    bodies, nodes, dunder_all = _survey(tree, text)
    if not nodes:
        return []
    import_lines = {line for node in nodes for line in range(node.lineno, node.end_lineno + 1)}
    for number, line in enumerate(source.lines, 1):
        if number in import_lines and not line.isascii():
            raise Unsupported("non-ASCII text in an import")
        if "isort" in line and number not in import_lines:
            raise Unsupported("an isort directive")
    imports = {id(node): _Import(node, source) for node in nodes}
    fixes = [] if package_init else _unused_fixes(tree, imports, dunder_all, bodies, source)
    fixes += _block_fixes(tree, imports, bodies, source, settings, line_length)
    return fixes


def _survey(tree, text):
    """Every list of statements (a module's, a function's, a branch's) with the node that holds it, outermost first;
    every import statement; every node that names `__all__`. Statements only, walked once: imports are statements."""
    bodies, imports, dunder_all = [], [], []
    pending = [(tree, tree.body)]
    while pending:
        owner, body = pending.pop(0)
        bodies.append((owner, body))
        for statement in body:
            if isinstance(statement, IMPORTS):
                imports.append(statement)
                continue
            for holder in [statement] + getattr(statement, "handlers", []) + getattr(statement, "cases", []):
                for field in ("body", "orelse", "finalbody"):
                    value = getattr(holder, field, None)
                    if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                        pending.append((holder, value))
    if "__all__" in text:
        dunder_all = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "__all__" or isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "__all__"]
    return bodies, imports, dunder_all


class _Import:
    """A top-level import statement with what the rules need: its text, comments, `noqa` codes, isort skip."""

    def __init__(self, node, source):
        self.node = node
        self.indentation = source.lines[node.lineno - 1][: node.col_offset]
        if self.indentation.strip(" "):
            raise Unsupported("an import after a semicolon, or indented with tabs")
        self.line_start = source.offset(node.lineno, 0)
        self.start = source.offset(node.lineno, node.col_offset)
        self.end = source.offset(node.end_lineno, node.end_col_offset)
        self.written = source.text[self.start : self.end]
        self.one_line = node.lineno == node.end_lineno
        if ";" in source.lines[node.end_lineno - 1][node.end_col_offset :].split("#")[0]:
            raise Unsupported("more statements on an import line")
        dotted = [alias.name for alias in node.names] + ([] if isinstance(node, ast.Import) else [node.module or ""])
        if any(name not in self.written for name in dotted):
            raise Unsupported("spaces in a dotted name")
        self.comments = [c for line in range(node.lineno, node.end_lineno + 1) for c in [_comment(source, line)] if c]
        # `from m import (a, b,)`: the magic trailing comma that keeps a statement wrapped.
        self.trailing_comma = self.written.endswith(")") and re.sub(r"#[^\n]*", "", self.written[:-1]).rstrip().endswith(",")
        self.noqa, self.skip = None, False
        for _, _, text in self.comments:
            if "noqa" in text.lower() or "isort" in text:
                if not self.one_line:
                    raise Unsupported("noqa or isort comments on a multi-line import")
                match = NOQA.match(text)
                if match:
                    self.noqa = set(re.split(r"[\s,]+", match.group(1).upper())) if match.group(1) else {"*"}
                    if "noqa" in text[match.end() :].lower() or "isort" in text:
                        raise Unsupported("a comment with more than one directive")
                elif SKIP.match(text) and ("isort: skip" in text or "isort:skip" in text) and "noqa" not in text.lower():
                    self.skip = True
                else:
                    raise Unsupported("a noqa or isort comment tug does not read")

    def ignores(self, code):
        return self.noqa is not None and ("*" in self.noqa or code in self.noqa)

    def annotated(self, comments, source):
        """ruff's reading of the block's comments (those not yet taken) for this statement: above, inline, trailing."""
        node, taken, line_end = self.node, lambda test: _take(comments, test), source.end_of_line
        atop = taken(lambda c: c[0] < self.start)
        if isinstance(node, ast.Import):
            inline = taken(lambda c: c[1] <= line_end(self.end))
            return {"kind": "import", "names": [(a.name, a.asname) for a in node.names], "atop": atop, "inline": inline}
        if not all(hasattr(alias, "end_col_offset") for alias in node.names):
            raise Unsupported("a Python older than 3.10 (no positions of imported names)")
        spans = [(source.offset(a.lineno, a.col_offset), source.offset(a.end_lineno, a.end_col_offset)) for a in node.names]
        inline = []
        if len(node.names) > 1 or "\n" in source.text[self.start : spans[0][0]]:
            inline = taken(lambda c: c[1] <= line_end(self.start))
        names = []
        for alias, (start, end) in zip(node.names, spans):
            names.append({"name": alias.name, "asname": alias.asname, "atop": taken(lambda c: c[0] < start), "inline": taken(lambda c: c[1] <= line_end(end)), "trailing": []})
        names[-1]["trailing"] = taken(lambda c: c[0] < self.end)
        trailing = taken(lambda c: c[0] < line_end(self.end))
        return {"kind": "from", "module": node.module, "level": node.level or 0, "names": names, "atop": atop, "inline": inline, "trailing": trailing, "trailing_comma": self.trailing_comma}


def _comment(source, line):
    """The comment on a line of import statements and comments (no strings there): (start, end, text) or None."""
    text = source.lines[line - 1]
    at = text.find("#")
    return None if at < 0 else (source.offset(line, at), source.offset(line, len(text)), text[at:])


def _take(comments, test):
    taken = []
    while comments and test(comments[0]):
        taken.append(comments.pop(0)[2])
    return taken


def _unused_fixes(tree, imports, dunder_all, bodies, source):
    """F401's fixes: statements whose bindings nothing reads lose those names, or go when none is left."""
    unused = {}
    for node, alias in unused_imports(tree, [imp.node for imp in imports.values()], dunder_all):
        unused.setdefault(id(node), set()).add(id(alias))
    fixes = []
    body_of = {id(statement): body for _, body in bodies for statement in body}
    for imp in imports.values():
        node = imp.node
        # `# noqa: F401` is ruff's; a `# isort: skip` line tug keeps whole (it is there on purpose).
        if id(node) not in unused or imp.skip or imp.ignores("F401"):
            continue
        keep = [alias for alias in node.names if id(alias) not in unused[id(node)]]
        body = body_of[id(node)]
        if not keep and len(body) == 1 and body is not tree.body:
            # The only statement of a block: ruff puts `pass` in its place.
            fixes.append((imp.start, imp.end, "pass"))
        elif not keep:
            fixes.append((imp.line_start, source.line_end(node.end_lineno), "") + (() if body is tree.body else ((id(body), len(body)),)))
        elif "#" in imp.written:
            raise Unsupported("an unused name in an import with comments inside")
        else:
            names = ", ".join(alias.name if alias.asname is None else "%s as %s" % (alias.name, alias.asname) for alias in keep)
            if isinstance(node, ast.Import):
                text = "import " + names
            else:
                head = "from %s%s import " % ("." * (node.level or 0), node.module or "")
                # What stays of the statement keeps its parentheses and its trailing comma, as ruff's fix does.
                text = head + ("(%s%s)" % (names, "," if imp.trailing_comma else "") if imp.written.endswith(")") else names)
            fixes.append((imp.start, imp.end, text))
    return fixes


def _block_fixes(tree, imports, bodies, source, settings, line_length):
    """I001's fixes: each run of imports in one list of statements laid out as ruff lays it out, at the top level
    with the blank lines after it."""
    fixes = []
    indent = _IndentUnit(source)
    for _, body in bodies:
        i = 0
        while i < len(body):
            # A `# isort: skip` import is no import to the blocks: it ends one like any other statement.
            if id(body[i]) not in imports or imports[id(body[i])].skip:
                i += 1
                continue
            j = i
            while j < len(body) and id(body[j]) in imports and not imports[id(body[j])].skip:
                j += 1
            block, after = [imports[id(node)] for node in body[i:j]], body[j] if j < len(body) else None
            i = j
            fix = _block_fix(block, after if body is tree.body else None, source, settings, line_length, indent)
            if fix:
                fixes.append(fix)
    return fixes


def _block_fix(block, after, source, settings, line_length, indent):
    indentation = block[0].indentation
    start, end = block[0].line_start, source.line_end(block[-1].node.end_lineno)
    comments = [c for line in range(block[0].node.lineno, block[-1].node.end_lineno + 1) for c in [_comment(source, line)] if c]
    statements = [imp.annotated(comments, source) for imp in block]
    if block[0].ignores("I001"):
        return None
    expected = render(statements, settings, line_length - len(indentation), indent)
    if after is not None:
        end = _blank_lines_end(source.text, end)
        definition = isinstance(after, DEFINITIONS) and not _comment_break(source, min([after.lineno] + [d.lineno for d in after.decorator_list]))
        # One blank line before other code, two before a function or class (none at the end of the file).
        expected += "\n\n" if definition else "\n"
    if _same_lines(source.text[start:end], expected):
        return None
    return (start, end, "".join(indentation + line if line.strip() else line for line in expected.splitlines(True)))


class _IndentUnit:
    """ruff's indentation for wrapped imports, found only when one wraps: the first indented block's, else the first
    indented line inside brackets (or after a blank line), else four spaces."""

    def __init__(self, source):
        self.source = source
        self.unit = None

    def __call__(self):
        if self.unit is None:
            import io
            import tokenize

            lines, fallback = self.source.lines, None
            try:
                for token in tokenize.generate_tokens(io.StringIO(self.source.text).readline):
                    if token.type == tokenize.INDENT:
                        self.unit = token.string
                        break
                    if token.type == tokenize.NL and fallback is None and token.start[0] < len(lines):
                        following = lines[token.start[0]]
                        indent = following[: len(following) - len(following.lstrip())]
                        if indent and following.strip():
                            fallback = indent
            except (tokenize.TokenError, SyntaxError):
                raise Unsupported("the file does not tokenize here")
            self.unit = self.unit or fallback or "    "
        return self.unit


def _blank_lines_end(text, at):
    while at < len(text):
        newline = text.find("\n", at)
        line_end = len(text) if newline < 0 else newline
        if text[at:line_end].strip(" \t"):
            break
        at = line_end if newline < 0 else newline + 1
    return at


def _comment_break(source, line):
    """ruff's exception to two blank lines: a comment, then a blank line, between the imports and the definition."""
    seen_blank = False
    for text in reversed(source.lines[: line - 1]):
        text = text.strip(" \t")
        if seen_blank:
            if text.startswith("#"):
                return True
            if text:
                return False
        elif not text:
            seen_blank = True
        elif not (text.startswith("#") or text.startswith("@")):
            return False
    return False


def _same_lines(actual, expected):
    """ruff's comparison: line by line, ignoring the indentation each line starts with."""
    ours, theirs = actual.split("\n"), expected.split("\n")
    # A final newline ends the last line; it does not start another.
    if ours and ours[-1] == "":
        ours.pop()
    if theirs and theirs[-1] == "":
        theirs.pop()
    return len(ours) == len(theirs) and all(a.lstrip(" \t") == b.lstrip(" \t") for a, b in zip(ours, theirs))
