# Edits that land inside an f-string's replacement field follow the target Python's rules. Before 3.12 (PEP 701) a
# replacement field may not hold the quote of any f-string around it, a backslash or a comment: `f"{"-".join(x)}"` is a
# SyntaxError on 3.11. Such a text gets its string literals' quotes switched where that is enough, else a refusal.
import ast
import io
import sys
import tokenize

from tugworker.local_edits import Refused

QUOTES = ("'", '"')


def target_version(text):
    """The target as (major, minor): the project's requires-python as the caller read it, else this interpreter's."""
    if isinstance(text, str) and text.count(".") >= 1:
        major, minor = text.split(".")[:2]
        if major.isdigit() and minor.isdigit():
            return int(major), int(minor)
    return sys.version_info[:2]


def _quote_of(data, start):
    """The quote that opens the string literal at start (after its prefix letters): `'`, `"`, `'''` or `\"\"\"`."""
    at = start
    while data[at : at + 1].isalpha():
        at += 1
    quote = data[at : at + 1].decode()
    return quote * 3 if data[at : at + 3] == quote.encode() * 3 else quote


def _enclosing_quotes(tree, data, offset_of, start, end):
    """The quotes of the f-strings whose span holds [start, end), outermost first."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and hasattr(node, "end_lineno"):
            s, e = offset_of(node.lineno, node.col_offset), offset_of(node.end_lineno, node.end_col_offset)
            if s < start and end < e:
                found.append((s, _quote_of(data, s)))
    return [q for _, q in sorted(found)]


def _switched(text, banned):
    """The text with each string literal that uses a banned quote re-quoted with a free one, or None."""
    free = [q for q in QUOTES if q not in banned]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    out, last = [], 0
    for token in tokens:
        if token.type != tokenize.STRING:
            continue
        s = starts[token.start[0] - 1] + token.start[1]
        e = starts[token.end[0] - 1] + token.end[1]
        literal = text[s:e]
        prefix = len(literal) - len(literal.lstrip("rRbBuUfF"))
        quote = literal[prefix]
        if quote not in banned:
            continue
        body = literal[prefix + 1 : -1]
        if not free or literal[prefix : prefix + 3] == quote * 3 or any(q in body for q in QUOTES) or "\\" in body:
            return None
        out.append(text[last:s] + literal[:prefix] + free[0] + body + free[0])
        last = e
    return "".join(out) + text[last:]


def prints_itself(tree, data, offset_of, start, end):
    """Whether [start, end) is in the expression of a self-documenting field (`f"{a + b=}"`), whose text the f-string
    prints: any edit there changes the output."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and hasattr(node.value, "end_lineno"):
            s = offset_of(node.value.lineno, node.value.col_offset)
            e = offset_of(node.value.end_lineno, node.value.end_col_offset)
            after = data[e:].lstrip()
            if s <= start and end <= e and after[:1] == b"=" and after[1:2] != b"=":
                return True
    return False


def fit(tree, data, offset_of, start, end, new_text, target, where):
    """new_text for [start, end), made valid where it lands for the target Python, or Refused saying why not."""
    if prints_itself(tree, data, offset_of, start, end):
        raise Refused("UnsafeRefactor", "the edit at %s is inside an f-string field ending in `=`, which prints its own source text" % where, {"reason": "self-documenting f-string field"})
    if target >= (3, 12):
        return new_text
    quotes = _enclosing_quotes(tree, data, offset_of, start, end)
    if not quotes:
        return new_text
    banned = {q[0] for q in quotes}
    text = new_text
    if any(q in text for q in banned):
        text = _switched(text, banned)
    if text is None or any(q in text for q in banned) or "\\" in text or "#" in text or ("\n" in text and len(quotes[-1]) == 1):
        raise Refused(
            "UnsafeRefactor",
            "%s would land inside an f-string at %s; before Python 3.12 a replacement field may hold no quote of its f-string, backslash or comment, and switching quotes does not help here (the target is Python %d.%d)" % (new_text, where, *target),
            {"reason": "f-string before Python 3.12", "target_python": "%d.%d" % target},
        )
    return text


def fit_edits(request):
    """Edits computed elsewhere (change-signature's argument lists) made to fit where they land: their new texts."""
    from tugworker.local_edits import Source

    source = Source(request["content"])
    target = target_version(request.get("target_python"))
    texts = []
    for e in request["edits"]:
        start, end = e["span"]
        line, col = source.position(start)
        texts.append(fit(source.tree, source.data, source.offset, start, end, e["new_text"], target, "%s:%d:%d" % (request.get("path", "<file>"), line, col)))
    return {"texts": texts}
