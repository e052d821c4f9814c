# Byte offsets for ast positions: ast columns count UTF-8 bytes per line, tug wants absolute offsets into the file.
import re

BOM = b"\xef\xbb\xbf"


class Positions:
    def __init__(self, data):
        self.data = data
        # ast positions on line 1 are counted after a BOM; the file offsets include it.
        self.bom = 3 if data.startswith(BOM) else 0
        self.starts = [0]
        for index, byte in enumerate(data):
            if byte == 0x0A:
                self.starts.append(index + 1)

    def offset(self, line, col):
        base = self.starts[line - 1] if line - 1 < len(self.starts) else len(self.data)
        return base + col + (self.bom if line == 1 else 0)

    def line_col(self, offset):
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.starts[lo] + 1

    def node_span(self, node):
        return [self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)]

    def text(self, start, end):
        return self.data[start:end].decode("utf-8", "replace")

    def find_name(self, name, start, end=None, after=None):
        """Span of identifier `name` in [start, end), optionally after a keyword such as `def`."""
        end = len(self.data) if end is None else end
        encoded = name.encode("utf-8")
        prefix = (rb"\b" + after.encode() + rb"\s+") if after else b""
        pattern = re.compile(prefix + rb"(?<![\w])(" + re.escape(encoded) + rb")(?![\w])")
        match = pattern.search(self.data, start, end)
        if not match:
            return None
        return [match.start(1), match.end(1)]

    def loc(self, span):
        line, col = self.line_col(span[0])
        return {"span": span, "line": line, "col": col}


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
