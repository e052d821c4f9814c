# ast.NodeVisitor with its per-node overhead cut: the facts walk visits every node of every file it reads, and the
# stdlib's visitor looks up the visit_ method by name and goes through iter_fields' generator for each one.
import ast


class FastVisitor(ast.NodeVisitor):
    """Visits exactly as ast.NodeVisitor does (same methods, same order), with each node class's method found once."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._visit_methods = {}

    def visit(self, node):
        kind = node.__class__
        method = self._visit_methods.get(kind)
        if method is None:
            method = self._visit_methods[kind] = getattr(type(self), "visit_" + kind.__name__, None) or type(self).generic_visit
        return method(self, node)

    def generic_visit(self, node):
        visit = self.visit
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        visit(item)
            elif isinstance(value, ast.AST):
                visit(value)
