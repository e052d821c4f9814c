# Byte offsets for ast positions: ast columns count UTF-8 bytes per line, tug wants absolute offsets into the file.
import re
from bisect import bisect_right

BOM = b"\xef\xbb\xbf"


class Positions:
    def __init__(self, data):
        self.data = data
        # ast positions on line 1 are counted after a BOM; the file offsets include it.
        self.bom = 3 if data.startswith(BOM) else 0
        self.starts = [0]
        index = data.find(b"\n")
        while index >= 0:
            self.starts.append(index + 1)
            index = data.find(b"\n", index + 1)

    def offset(self, line, col):
        base = self.starts[line - 1] if line - 1 < len(self.starts) else len(self.data)
        return base + col + (self.bom if line == 1 else 0)

    def line_col(self, offset):
        # The last line start at or before offset (offsets before 0 clamp to line 1).
        lo = max(bisect_right(self.starts, offset) - 1, 0)
        return lo + 1, offset - self.starts[lo] + 1

    def node_span(self, node):
        # offset() twice, inlined: every name, call and attribute of a file takes this path.
        starts, line, end_line = self.starts, node.lineno, node.end_lineno
        size = len(starts)
        start = (starts[line - 1] if line <= size else len(self.data)) + node.col_offset + (self.bom if line == 1 else 0)
        end = (starts[end_line - 1] if end_line <= size else len(self.data)) + node.end_col_offset + (self.bom if end_line == 1 else 0)
        return [start, end]

    def text(self, start, end):
        return self.data[start:end].decode("utf-8", "replace")

    def find_name(self, name, start, end=None, after=None):
        """Span of identifier `name` in [start, end), optionally after a keyword such as `def` (`after` is
        literal text, matched at a word boundary and followed by whitespace).

        A plain scan rather than a regex per call: names are nearly all distinct, so compiling a pattern for
        each one cost more than parsing the file."""
        data = self.data
        end = len(data) if end is None else end
        encoded = name.encode("utf-8")
        size = len(encoded)
        keyword = after.encode() if after else b""
        at = data.find(encoded, start, end)
        while at >= 0:
            stop = at + size
            # Word characters are ASCII ones, as in a bytes regex; nothing past `end` counts, as with endpos.
            if (at == 0 or data[at - 1] not in _WORD) and (stop >= end or data[stop] not in _WORD):
                if not keyword or self._after_keyword(at, keyword, start):
                    return [at, stop]
            at = data.find(encoded, at + 1, end)
        return None

    def _after_keyword(self, at, keyword, start):
        """Whether `keyword` plus at least one whitespace byte ends right at `at`, starting at or after `start`."""
        data = self.data
        gap = at
        while gap > 0 and data[gap - 1] in _SPACE:
            gap -= 1
        begin = gap - len(keyword)
        if gap == at or begin < start or data[begin:gap] != keyword:
            return False
        # `\b` before the keyword: a change between word and non-word characters.
        before = begin > 0 and data[begin - 1] in _WORD
        return before != (data[begin] in _WORD)

    def loc(self, span):
        # line_col() inlined, for the same reason.
        offset = span[0]
        line = max(bisect_right(self.starts, offset) - 1, 0)
        return {"span": span, "line": line + 1, "col": offset - self.starts[line] + 1}


_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_SPACE = frozenset(b" \t\n\r\f\v")


def string_content_span(positions, node):
    """The span inside the quotes of a one-part string literal, or None when the source is not that simple."""
    start, end = positions.node_span(node)
    raw = positions.data[start:end]
    match = re.match(rb"([rRuU]?)('''|\"\"\"|'|\")", raw)
    if not match or not raw.endswith(match.group(2)):
        return None
    inner = [start + match.end(), end - len(match.group(2))]
    if inner[1] < inner[0] or positions.data[inner[0]:inner[1]] != node.value.encode("utf-8"):
        return None
    return inner
