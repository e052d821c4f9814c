# Which refactoring rope's inline picks at a sweep position: for a name that is a parameter of the function it is in
# (even one the function assigns again), rope's create_inline returns InlineParameter, which writes the parameter's
# default into the calls of that function and changes nothing at the position. That is another operation than
# inlining the variable's value there, so the sweep counts it as rope declining the inline, not as an ok result.
# Usage: python3 -I rope_inline_kind.py FILE LINE COL  ->  {"parameter": true|false}
import ast
import json
import sys

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def parameter_at(path, line, col):
    with open(path, 'rb') as handle:
        tree = ast.parse(handle.read())
    name = next((n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.lineno == line and n.col_offset == col), None)
    if name is None:
        return False
    scopes = [f for f in ast.walk(tree) if isinstance(f, FUNCTIONS) and any(n is name for n in ast.walk(f))]
    # Innermost first: the first function that binds the name (a parameter, or a local it assigns) owns it.
    for function in sorted(scopes, key=lambda f: (f.lineno, f.col_offset), reverse=True):
        params = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
        if name.id in params:
            return True
        declared = any(isinstance(n, (ast.Global, ast.Nonlocal)) and name.id in n.names for n in ast.walk(function))
        stored = any(isinstance(n, ast.Name) and n.id == name.id and not isinstance(n.ctx, ast.Load) for n in ast.walk(function))
        if declared or stored:
            return False
    return False


if __name__ == '__main__':
    print(json.dumps({'parameter': parameter_at(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) - 1)}))
