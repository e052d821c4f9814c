# The sweep's check of an extracted expression that tests rarely see: extract-variable binds the expression in a new
# statement before the one that held it, so it then runs once, every time that statement runs. If it sat where it
# ran only sometimes or many times (on the right of and/or, in one branch of a conditional expression, in a
# comprehension's element or filter, in a lambda, in a while loop's test), the result evaluates it where it did not
# run before: `spec and spec.args` becomes `spec.args` read before `spec` is tested. That changes the meaning unless
# the expression is a name or a constant (or `not`, or a tuple, of those), whether or not the tests notice. This reads
# the base file only, so it judges the position, whichever tool extracted it.
# Usage: python3 -I extract_evaluation.py FILE LINE COL END_LINE END_COL (1-based columns, end exclusive);
# prints {"changes": null} or {"changes": "what the extraction would change"}.
import ast
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # run with -I, which leaves the script's folder out
from inline_evaluation import parsed  # noqa: E402


def inert(node):
    if isinstance(node, (ast.Constant, ast.Name)):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub, ast.UAdd)):
        return inert(node.operand)
    if isinstance(node, ast.Tuple):
        return all(inert(e) for e in node.elts)
    return False


def guard(parent, field, index):
    """Why code at `parent.field[index]` runs other than once per run of its statement, or None."""
    if isinstance(parent, ast.BoolOp) and index:
        return 'on the right of and/or'
    if isinstance(parent, ast.IfExp) and field in ('body', 'orelse'):
        return 'in one branch of a conditional expression'
    if isinstance(parent, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) and field != 'generators':
        return "in a comprehension's element"
    if isinstance(parent, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) and index:
        return "in a comprehension's inner loop"
    if isinstance(parent, ast.comprehension) and field in ('ifs', 'target'):
        return "in a comprehension's filter"
    if isinstance(parent, ast.Lambda):
        return 'in a lambda'
    if isinstance(parent, ast.While) and field == 'test':
        return "in a while loop's test"
    return None


def main():
    path, line, col, end_line, end_col = sys.argv[1], *map(int, sys.argv[2:6])
    tree, parents = parsed(path)
    span = (line, col - 1, end_line, end_col - 1)
    target = next((n for n in ast.walk(tree) if isinstance(n, ast.expr) and (n.lineno, n.col_offset, n.end_lineno, n.end_col_offset) == span), None)
    if target is None or inert(target):
        return None
    node = target
    while node in parents and not isinstance(node, ast.stmt):
        parent, field, index = parents[node]
        why = guard(parent, field, index)
        if why:
            text = ast.unparse(target)
            text = text if len(text) <= 80 else f'{text[:77]}...'
            return f'`{text}` ran only sometimes or many times ({why}); bound before the statement it runs once, every time'
        node = parent
    return None


if __name__ == '__main__':
    print(json.dumps({'changes': main()}))
