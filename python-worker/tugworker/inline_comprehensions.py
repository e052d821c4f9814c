# inline of a Python local into a comprehension that runs at once (multipledispatch's `n = len(signatures[0])` read in
# `all(len(s) == n for s in signatures)`): the value is then evaluated once per item instead of once before, which
# keeps the meaning when the value does nothing (no call, or only calls on the allowlist that give the same value
# while nothing changes what they read) and nothing in the comprehension can change what it reads.
import ast

from tugworker.local_edits import COMPREHENSIONS
from tugworker.pure_calls import builtin_call, inert_call

# Builtins that consume a generator expression passed to them before they return.
CONSUMERS = {"all", "any", "sum", "min", "max", "sorted", "list", "tuple", "set", "frozenset", "dict", "enumerate", "zip"}


def comprehension_refusal(source, comprehension, name, value, scope):
    """Why a use of `name` inside this comprehension cannot take the value, or None when it can."""
    if not _runs_at_once(source, comprehension):
        return "%s is used inside a generator expression that may run later" % name
    if any(isinstance(n, (ast.List, ast.Dict, ast.Set) + COMPREHENSIONS) for n in ast.walk(value)):
        return "%s is used inside a comprehension, which would build a new object for each item instead of one" % name
    reads = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    for node in ast.walk(comprehension):
        if isinstance(node, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return "%s is used inside a comprehension that holds a lambda or def" % name
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id in reads | {name}:
            return "%s is used inside a comprehension that binds %s itself" % (name, node.id)
        if isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)):
            return "%s is used inside a comprehension that awaits, yields or assigns" % name
        if isinstance(node, ast.Call) and not inert_call(node, scope, source.tree) and not _consumer(node, source.tree):
            return "%s is used inside a comprehension that calls something, which could change what the value reads between items" % name
    return None


def _runs_at_once(source, comprehension):
    """A list, set or dict comprehension runs where it stands; a generator expression only when a builtin consumes it."""
    if not isinstance(comprehension, ast.GeneratorExp):
        return isinstance(comprehension, COMPREHENSIONS)
    parent = source.parent.get(comprehension)
    return isinstance(parent, ast.Call) and parent.args == [comprehension] and not parent.keywords and _consumer(parent, source.tree)


def _consumer(call, tree):
    return builtin_call(call, CONSUMERS, tree)
