# inline of a Python local whose value runs later than it did: after calls (or attribute stores) that used to come
# after it. That changes only the order of effects, as extract-variable's hoisting does the other way round, so it is
# done with an EvaluationOrderChanged warning naming them, and refused under strict. What provably changes a value
# (a name it reads assigned again, the same attribute stored, a use that may run another number of times, a
# statement between that can leave before the use) stays refused in inline_local.py and here.
import ast

from tugworker.local_edits import COMPREHENSIONS, Refused, has_effects, short
from tugworker.pure_calls import reads_only

LEAVES = (ast.Return, ast.Raise, ast.Assert, ast.Yield, ast.YieldFrom, ast.Await)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
DEFINES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
EFFECT_NODES = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)


def refuse(reason, source, node):
    line, col = source.position(source.span(node)[0])
    raise Refused("UnsafeRefactor", "cannot inline this variable: %s" % reason, {"reason": reason, "line": line, "col": col})


class Moves:
    """What the inlined value now runs after: each note either refuses (strict) or is kept for the warning."""

    def __init__(self, source, strict):
        self.source, self.strict, self.nodes = source, strict, []

    def note(self, node, reason):
        if self.strict:
            refuse(reason + " (strict)", self.source, node)
        if not any(node is n for n in self.nodes):
            self.nodes.append(node)

    def warnings(self, value):
        """The EvaluationOrderChanged warning, or none when nothing moved past the value."""
        source = self.source
        outermost = [n for n in self.nodes if not any(n is not o and any(n is x for x in ast.walk(o)) for o in self.nodes)]
        if not outermost:
            return []
        calls = [short(source, n) + (" =" if isinstance(getattr(n, "ctx", None), (ast.Store, ast.Del)) else "") for n in sorted(outermost, key=lambda n: source.span(n)[0])]
        line, col = source.position(source.span(value)[0])
        message = "%s now runs after %s, which came after it (strict refuses this)" % (short(source, value), ", ".join(calls))
        return [{"code": "EvaluationOrderChanged", "message": message, "line": line, "col": col, "calls": calls}]


def touches(call, roots, tree):
    """Whether a call works on an object the value reads: its method (`items.append(…)`, `row.reverse()`) or passed
    itself (`grow(items)`), unless a builtin that only reads it (`getattr(obj, name)`). Such a call is likely to change
    what the value gives, so it is refused, not warned about."""
    if not isinstance(call, ast.Call) or reads_only(call, tree):
        return False
    func = call.func
    while isinstance(func, (ast.Attribute, ast.Subscript)):
        func = func.value
    if isinstance(call.func, ast.Attribute) and isinstance(func, ast.Name) and func.id in roots:
        return True
    passed = list(call.args) + [k.value for k in call.keywords]
    return any(isinstance(a.value if isinstance(a, ast.Starred) else a, ast.Name) and (a.value if isinstance(a, ast.Starred) else a).id in roots for a in passed)


def check_evaluation(source, value, uses, after, moves, scope):
    """A value that does something (a call, an await) must run exactly once, where it ran, so its one use may not be
    under a loop, a branch or a nested scope, and nothing between may leave before the use. Calls and stores between
    the assignment and the use now run before the value: noted for the warning (strict refuses)."""
    mutable = any(isinstance(n, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)) for n in ast.walk(value))
    if not has_effects(value) and not (mutable and len(uses) > 1):
        return
    use = uses[0]
    if len(uses) > 1:
        refuse("the value calls something (or builds a new object) and is used %d times" % len(uses), source, use)
    inside = next((i for i, statement in enumerate(after) if any(n is use for n in ast.walk(statement))), None)
    statement = after[inside]
    for parent in source.ancestors(use):
        if parent is statement:
            break
        if isinstance(parent, (ast.stmt, ast.BoolOp, ast.IfExp, ast.Lambda) + COMPREHENSIONS) or isinstance(parent, ast.comprehension):
            refuse("the value calls something and its use may run a different number of times", source, use)
    if isinstance(statement, (ast.While, ast.For, ast.AsyncFor)) and use is not getattr(statement, "iter", None):
        refuse("the value calls something and its use is in a loop", source, use)
    roots = {n.id for n in ast.walk(value) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    declared = {name for n in ast.walk(scope) if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
    for between in after[:inside]:
        for node, in_loop in _run_now(between):
            if isinstance(node, LEAVES) or isinstance(node, (ast.Break, ast.Continue)) and not in_loop:
                refuse("the value calls something, and a statement before its use may leave or pause before it (return, raise, assert, break, continue, yield, await)", source, node)
            if isinstance(node, DEFINES):
                refuse("the value calls something, and a def or class before its use runs code of its own", source, node)
            if touches(node, roots, source.tree):
                refuse("the value calls something, and a call before its use works on what it reads", source, node)
            if _reads_root(node, roots):
                refuse("the value calls something, and code before its use reads %s, which that call may change" % node.id, source, node)
            if _effect(node, declared):
                moves.note(node, "the value calls something and its use is not in the next statement")
    start = source.span(use)[0]
    for node in ast.walk(statement):
        if isinstance(node, EFFECT_NODES) and source.span(node)[1] <= start:
            if touches(node, roots, source.tree):
                refuse("the value calls something, and a call before its use works on what it reads", source, node)
            moves.note(node, "the value calls something and the statement of its use calls something before it")


def _run_now(statement):
    """The nodes of a statement that run when it does (not the bodies of lambdas; defs and classes are refused), each
    with whether a loop inside the statement holds it (a break there ends that loop, not the way to the use)."""
    stack = [(statement, False)]
    while stack:
        node, in_loop = stack.pop()
        yield node, in_loop
        if not isinstance(node, ast.Lambda):
            inner = in_loop or isinstance(node, LOOPS)
            stack.extend((child, inner) for child in ast.iter_child_nodes(node))


def _reads_root(node, roots):
    """A read, in a statement between, of a name the value reads (`for entry in args` after `final = args.pop()`): the
    value's call may change that object, and the statement would now see it before the change instead of after. (In
    the use's own statement the value already ran before anything read the object, as before this refactor allowed:
    what comes ahead of the use there only loads names.)"""
    return isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in roots


def _effect(node, declared):
    if isinstance(node, EFFECT_NODES):
        return True
    if isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(node.ctx, ast.Load):
        return True
    return isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id in declared
