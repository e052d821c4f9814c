# The sweep's check of an inlined local that tests rarely see: inlining `name = value` evaluates `value` at each use
# instead of once at the assignment. When the value calls something or builds a new object (a list, a dict, an
# instance), the meaning survives only if there is one use, evaluated exactly when the assignment was: not inside a
# loop, a branch, a lambda, a comprehension or a nested function that the assignment was not in. Otherwise the call
# runs more often, less often or later, and a second object is built where the code shared one, whether or not the
# project's tests notice. Whatever the value, a use must also read what the assignment read: a name or an
# attribute path (`self.scopeStack`) the value reads that is assigned again on the way from the assignment to a use
# (later in the text, not on another branch of an if) gives that use a different value. This reads the base file
# only, so it judges the position, whichever tool inlined it.
# Usage: python3 -I inline_evaluation.py FILE LINE COL (COL 1-based, at the assigned name);
# prints {"changes": null} or {"changes": "what the inline would change"}.
import ast
import json
import sys

# Builtins that neither have effects nor return a new mutable object: evaluating them again changes nothing.
PURE = {'len', 'abs', 'int', 'float', 'str', 'bool', 'repr', 'isinstance', 'issubclass', 'ord', 'chr', 'round',
        'hash', 'type', 'tuple', 'frozenset', 'min', 'max', 'bytes', 'callable'}
# Methods of str, bytes, dict, compiled patterns and match objects that only read: called again, they give an equal
# value (a new match or list, but one nothing else holds yet). The check cannot see types, so it trusts the name; a
# user method of the same name that has effects would slip through, which errs towards the tool, not against it.
PURE_METHODS = {'get', 'group', 'groups', 'groupdict', 'span', 'start', 'end', 'match', 'fullmatch', 'search',
                'split', 'rsplit', 'splitlines', 'lower', 'upper', 'strip', 'lstrip', 'rstrip', 'startswith',
                'endswith', 'find', 'rfind', 'count', 'replace', 'join', 'format', 'encode', 'decode', 'keys',
                'values', 'items', 'isdigit', 'isalpha', 'isspace', 'partition', 'rpartition', 'casefold'}
BUILDS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# (node type, field) pairs whose code runs a number of times, or under a condition, that differs from their parent's.
GUARDED = {(ast.For, 'body'), (ast.For, 'orelse'), (ast.AsyncFor, 'body'), (ast.AsyncFor, 'orelse'),
           (ast.While, 'test'), (ast.While, 'body'), (ast.While, 'orelse'), (ast.If, 'body'), (ast.If, 'orelse'),
           (ast.IfExp, 'body'), (ast.IfExp, 'orelse'), (ast.Try, 'handlers'), (ast.Try, 'orelse'),
           (ast.Try, 'finalbody'), (ast.Lambda, 'body'), (ast.FunctionDef, 'body'), (ast.AsyncFunctionDef, 'body'),
           (ast.Assert, 'msg')}


def pure_call(call):
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in PURE
    if isinstance(func, ast.Attribute):
        return func.attr in PURE_METHODS or (isinstance(func.value, ast.Name) and func.value.id == 're')
    return False


def effect(value):
    """The first part of `value` that has an effect or builds an object, as source text, or None."""
    for node in ast.walk(value):
        if isinstance(node, ast.Call) and not pure_call(node):
            return ast.unparse(node)
        if isinstance(node, BUILDS) or isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)):
            return ast.unparse(node)
    return None


def context(node, parents, stop):
    """The guarded constructs between `node` and `stop`, as (construct, field[, index]) keys."""
    keys = []
    while node is not stop and node in parents:
        parent, field, index = parents[node]
        if (type(parent), field) in GUARDED:
            keys.append((id(parent), field))
        elif isinstance(parent, ast.BoolOp) and index:
            keys.append((id(parent), 'values', index))
        elif isinstance(parent, ast.comprehension) and field in ('ifs', 'target'):
            keys.append((id(parent), field))
        elif isinstance(parent, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) and field != 'generators':
            keys.append((id(parent), field))
        elif isinstance(parent, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) and index:
            keys.append((id(parent), field, index))
        elif isinstance(parent, ast.match_case):
            keys.append((id(parent), field))
        node = parent
    return keys


def other_branches(a, b, parents):
    """Whether `a` and `b` sit on different branches of one if or conditional expression (only one of them runs)."""
    chain_b = [b]
    while chain_b[-1] in parents:
        chain_b.append(parents[chain_b[-1]][0])
    node, under = a, None
    while True:
        if node in chain_b:
            below_b = chain_b[chain_b.index(node) - 1] if chain_b.index(node) else None
            if not isinstance(node, (ast.If, ast.IfExp)) or under is None or below_b is None:
                return False
            side = lambda n: parents[n][1] if n in parents else None
            return {side(under), side(below_b)} == {'body', 'orelse'}
        if node not in parents:
            return False
        node, under = parents[node][0], node


def changed_reads(assign, uses, function, parents):
    """A name or attribute path the value reads that a store between the assignment and a use gives a new value."""
    own = {n.id for n in ast.walk(assign.value) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    own |= {a.arg for n in ast.walk(assign.value) if isinstance(n, ast.Lambda) for a in ast.walk(n.args) if isinstance(a, ast.arg)}
    reads = {n.id for n in ast.walk(assign.value) if isinstance(n, ast.Name) and n.id not in own}  # not a comprehension's own
    reads |= {ast.unparse(n) for n in ast.walk(assign.value) if isinstance(n, (ast.Attribute, ast.Subscript))}
    end = (assign.end_lineno, assign.end_col_offset)
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id in reads:
            what = node.id
        elif isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(node.ctx, ast.Load) and ast.unparse(node) in reads:
            what = ast.unparse(node)
        else:
            continue
        statement = node
        while not isinstance(statement, ast.stmt):
            statement = parents[statement][0]
        stored = (statement.end_lineno, statement.end_col_offset) if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)) else (node.lineno, node.col_offset)
        for use in uses:
            if end <= (node.lineno, node.col_offset) and stored <= (use.lineno, use.col_offset) and not other_branches(node, use, parents):
                return f'`{what}`, which the value reads, is assigned again at line {node.lineno}, before the use at line {use.lineno}'
    return None


def parsed(path):
    """The file's tree and each node's (parent, field, index in that field); extract_evaluation.py uses it too."""
    with open(path, 'rb') as handle:
        tree = ast.parse(handle.read())
    parents = {}
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            items = value if isinstance(value, list) else [value]
            for index, child in enumerate(items):
                if isinstance(child, ast.AST):
                    parents[child] = (parent, field, index)
    return tree, parents


def main():
    path, line, col = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) - 1
    tree, parents = parsed(path)
    target = next((n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.lineno == line and n.col_offset == col
                   and isinstance(n.ctx, ast.Store)), None)
    assign = parents.get(target, (None,))[0]
    if not isinstance(assign, ast.Assign) or assign.targets != [target]:
        return None
    function = assign
    while function in parents and not isinstance(function, FUNCTIONS):
        function = parents[function][0]
    if not isinstance(function, FUNCTIONS):
        return None
    name = target.id
    stores = [n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1:
        return None  # assigned again: which uses an inline takes is the tool's business; tests and pyflakes judge it
    # The uses of the assigned value: reads after the assignment, and reads before it inside a loop that holds it (the
    # next turn's). Other reads before it, and the value's own, read what the name held before (a parameter).
    end = (assign.end_lineno, assign.end_col_offset)
    loops = [n for n in ast.walk(function) if isinstance(n, (ast.For, ast.AsyncFor, ast.While)) and any(m is assign for m in ast.walk(n))]
    inside = lambda node, outer: any(m is node for m in ast.walk(outer))
    uses = [n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
            and not inside(n, assign.value) and ((n.lineno, n.col_offset) >= end or any(inside(n, loop) for loop in loops))]
    changed = changed_reads(assign, uses, function, parents)
    if changed:
        return changed
    what = effect(assign.value)
    if what is None:
        return None
    what = what if len(what) <= 80 else f'{what[:77]}...'
    if not uses:
        return f'`{what}` would not run at all (`{name}` is never read)'
    if len(uses) > 1:
        return f'`{what}` would run {len(uses)} times instead of once (one per use of `{name}`)'
    if uses and context(uses[0], parents, function) != context(assign, parents, function):
        return f'`{what}` would run inside a loop, branch, lambda or nested function where `{name} = …` was not'
    return None


if __name__ == '__main__':
    print(json.dumps({'changes': main()}))
