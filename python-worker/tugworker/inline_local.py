# inline for a Python local variable: `name = value` assigned once, each use replaced by the value and the assignment
# removed. Refused wherever the value could mean or do something else at a use.
import ast
import re

from tugworker.fstrings import fit, target_version
from tugworker.inline_comprehensions import comprehension_refusal
from tugworker.inline_order import Moves, check_evaluation, touches
from tugworker.local_edits import COMPREHENSIONS, Refused, SCOPES, Source, edit, has_effects, own_nodes
from tugworker.pure_calls import cannot_tell_apart, fresh_call, inert_call, repeatable_calls

ATOMS = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.JoinedStr)
GUARDS = (ast.Try, ast.With, ast.AsyncWith) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
DYNAMIC = {"locals", "vars", "eval", "exec", "globals"}


def _name_at(source, offset):
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Name):
            s, e = source.span(node)
            if s <= offset < e or (offset == e and e > s):
                return node
    for node in ast.walk(source.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            header = re.compile(rb"(?:async\s+)?(?:def|class)\s+(" + re.escape(node.name.encode("utf-8")) + rb")\b")
            match = header.match(source.data, source.offset(node.lineno, node.col_offset))
            if match and match.start(1) <= offset < match.end(1):
                raise Refused("UnsupportedOperation", "%s is a class, method or nested function; Python inline takes a function's local variables and module-level functions" % node.name, {"operation": "inline", "reason": "not a local variable"})
    raise Refused("SymbolNotFound", "there is no variable name at that position", {"reason": "put the position on the variable's assignment or a use"})


def _refuse(reason, source, node):
    line, col = source.position(source.span(node)[0])
    raise Refused("UnsafeRefactor", "cannot inline this variable: %s" % reason, {"reason": reason, "line": line, "col": col})


def _body_holding(source, statement):
    block = source.parent[statement]
    for field in ("body", "orelse", "finalbody"):
        body = getattr(block, field, None)
        if isinstance(body, list) and statement in body:
            return body
    return None


def _needs_parentheses(source, use, value, text):
    if isinstance(value, ast.Tuple):
        return not (text.startswith("(") and text.endswith(")"))
    if isinstance(value, ATOMS):
        return False
    parent = source.parent[use]
    safe_parent = isinstance(parent, (ast.Return, ast.Assign, ast.AnnAssign, ast.Expr, ast.List, ast.Set, ast.keyword, ast.FormattedValue)) or (
        isinstance(parent, ast.Call) and use in parent.args
    ) or (isinstance(parent, ast.Subscript) and use is parent.slice) or (isinstance(parent, ast.Dict))
    return not safe_parent or isinstance(value, (ast.NamedExpr, ast.Yield, ast.YieldFrom))


def inline_local(content, offset, target_python=None, strict=False):
    source = Source(content)
    moves = Moves(source, strict)
    python = target_version(target_python)
    target = _name_at(source, offset)
    name = target.id
    scope = source.scope_of(target)
    while isinstance(scope, COMPREHENSIONS) and any(n is target for n in ast.walk(scope.generators[0].iter)):
        scope = source.scope_of(scope)
    if isinstance(scope, ast.Module):
        _refuse("%s is a module-level name, which other modules may import; inline works on a function's locals" % name, source, target)
    if isinstance(scope, (ast.ClassDef, ast.Lambda) + COMPREHENSIONS):
        _refuse("%s is not a local of a function" % name, source, target)
    nodes = list(own_nodes(scope))
    # A comprehension's first iterable runs at once in this scope (`[f(s) for s in sigs]` reads sigs here, once).
    first_iters = {}
    for comprehension in (n for n in nodes if isinstance(n, COMPREHENSIONS)):
        first = comprehension.generators[0].iter
        inner = [first, *own_nodes(first)] if not isinstance(first, SCOPES) else [first]
        first_iters.update((id(n), comprehension) for n in inner)
        nodes += inner
    for node in nodes:
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            _refuse("%s is declared global or nonlocal" % name, source, node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in DYNAMIC:
            _refuse("the function calls %s(), which can read its locals by name" % node.func.id, source, node)
    params = {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)}
    names = [n for n in nodes if isinstance(n, ast.Name) and n.id == name]
    stores = [n for n in names if not isinstance(n.ctx, ast.Load)]
    other_binders = [n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name]
    other_binders += [n for n in nodes if isinstance(n, ast.alias) and (n.asname or n.name).split(".")[0] == name]
    other_binders += [n for n in nodes if isinstance(n, ast.ExceptHandler) and n.name == name]
    if not stores and name in params:
        _refuse("%s is a parameter, never given a value in the function" % name, source, target)
    if not stores:
        what = "a function or class" if other_binders or _defined_outside(source, name) else "not assigned in this function"
        raise Refused("UnsupportedOperation", "%s is %s, and no module-level function tug can inline; Python inline takes a function's local variables and module-level functions" % (name, what), {"operation": "inline", "reason": "not a local variable"})
    if len(stores) != 1 or other_binders:
        _refuse("%s is assigned more than once (or deleted, or bound by a loop, with, import or def)" % name, source, target)
    store = stores[0]
    assignment = source.parent[store]
    if not (isinstance(assignment, ast.Assign) and assignment.targets == [store]) and not (isinstance(assignment, ast.AnnAssign) and assignment.target is store and assignment.value is not None):
        _refuse("%s is not bound by a plain `%s = value`" % (name, name), source, store)
    value = assignment.value
    uses = [n for n in names if isinstance(n.ctx, ast.Load)]
    if name in params:
        # A parameter given a new value once, by a statement of the function's own body (isodate's
        # `tzsign = ((tzsign == '-') and -1) or 1`): the code before it runs once, before it, and reads the argument;
        # the uses after it read the new value. Without the assignment the name keeps the argument, which is what the
        # value read, so each later use can compute it again. Under an if or a loop some uses see either value.
        if assignment not in scope.body:
            _refuse("%s is a parameter, given a new value inside an if, loop, try or with" % name, source, target)
        uses = [n for n in uses if source.span(n)[0] >= source.span(assignment)[1]]
    # Uses in functions and lambdas nested here read the variable later, in a scope of their own; a comprehension that
    # runs at once, with nothing in it that could change what the value reads, takes it once per item.
    for node in ast.walk(scope):
        if isinstance(node, SCOPES) and node is not scope and any(isinstance(n, ast.Name) and n.id == name and id(n) not in first_iters for n in ast.walk(node)):
            if not isinstance(node, COMPREHENSIONS):
                _refuse("%s is used inside a nested function, lambda or comprehension" % name, source, node)
            reason = comprehension_refusal(source, node, name, value, scope)
            if reason is not None:
                _refuse(reason, source, node)
            known = {id(u) for u in uses}
            uses += [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and id(n) not in known]
    uses.sort(key=lambda n: source.span(n)[0])
    if not uses:
        _refuse("%s is never used; there is nothing to inline" % name, source, store)
    body = _body_holding(source, assignment)
    if body is None or source.indentation_before(assignment) is None:
        _refuse("the assignment shares its line with other code", source, assignment)
    after = body[body.index(assignment) + 1 :]
    inside_after = {id(n) for stmt in after for n in ast.walk(stmt)}
    for use in uses:
        if id(use) not in inside_after:
            _refuse("a use of %s comes before its assignment or outside the block it is assigned in" % name, source, use)
    last_use = max(source.span(u)[0] for u in uses)
    assign_end = source.span(assignment)[1]
    reads = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    # A use in a loop reads again on the next turn: whatever the rest of the loop assigns comes before it too.
    limit = _read_limit(source, uses, assign_end, last_use)
    for node in nodes:
        if isinstance(node, ast.Name) and node.id in reads and not isinstance(node.ctx, ast.Load) and assign_end <= source.span(node)[0] < limit:
            if limit == last_use and _stored_after_use(source, node, last_use):
                continue
            if not any(_may_run_before(source, node, use, assign_end) for use in uses):
                continue
            _refuse("%s, which the value reads, is assigned again before a use" % node.id, source, node)
    # Calls on the allowlist (pure_calls.py) give the same value at each use while nothing changes what they read.
    repeatable = repeatable_calls(value, scope, source.tree) if has_effects(value) else None
    fresh = fresh_call(value, source.tree) if repeatable is None else None
    if fresh is not None:
        for use in uses:
            if not cannot_tell_apart(source, use, fresh):
                _refuse("the value makes a new object (a regex %s) and a use could tell two of them apart" % fresh, source, use)
        repeatable = [(value, True)]
    if repeatable is None:
        check_evaluation(source, value, uses, after, moves, scope)
    for use in uses if repeatable else []:
        # Such a call can still raise (`int(s)`): under a try (or a with, which may suppress it) that it did not run
        # in, the exception would now be caught.
        if any(isinstance(p, GUARDS) and source.span(p)[0] >= assign_end for p in source.ancestors(use)):
            _refuse("the value calls something that may raise, and a use is inside a try or with statement after it", source, use)
    inert = lambda call: inert_call(call, scope, source.tree)
    _check_state(source, value, uses, after, assign_end, last_use, repeatable or [], _run_after(uses, first_iters), inert, moves)
    s, e = source.span(value)
    text = source.slice(s, e)
    if "\n" in text and not (text[0] in "([{" and text[-1] in ")]}"):
        text = "(%s)" % text
    edits = []
    for use in uses:
        us, ue = source.span(use)
        new_text = "(%s)" % text if _needs_parentheses(source, use, value, text) else text
        edits.append(edit(source, us, ue, fit(source.tree, source.data, source.offset, us, ue, new_text, python, "line %d" % use.lineno)))
    start = source.line_start(source.span(assignment)[0])
    end = assign_end
    rest_of_line = source.data[end : source.data.find(b"\n", end) + 1 if source.data.find(b"\n", end) >= 0 else len(source.data)]
    if rest_of_line.strip() and not rest_of_line.strip().startswith(b"#"):
        _refuse("the assignment shares its line with other code", source, assignment)
    edits.append(edit(source, start, end + len(rest_of_line), ""))
    return {"edits": sorted(edits, key=lambda e: e["span"]), "name": name, "uses": len(uses), "warnings": moves.warnings(value)}


def _defined_outside(source, name):
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name for n in ast.walk(source.tree))


def _run_after(uses, first_iters):
    """The nodes of a comprehension one of whose uses is its first iterable, except that iterable: they run after it."""
    later = {}
    for use in uses:
        comprehension = first_iters.get(id(use))
        if comprehension is not None:
            iterable = {id(n) for n in ast.walk(comprehension.generators[0].iter)}
            later.update((id(n), comprehension) for n in ast.walk(comprehension) if id(n) not in iterable and n is not comprehension)
    return later


def _check_state(source, value, uses, after, assign_end, last_use, repeatable, later, inert, moves):
    """A value that reads an attribute or an item (`uri.fragment`, `row[0]`), or calls an allowlisted function of
    something (`len(items)`), reads state: inlined, it reads it at the use, after whatever runs between. A store
    there that may hit what it reads (_may_alias), or a call on an object it reads, may change it: refused. Another
    call or store changes it only through code of its own: the read moves after it, which the warning names (strict
    refuses). A use in a loop reads it again on the next turn, so the rest of the loop counts
    as between. A match's or a str's own methods read nothing that can change."""
    fixed = {id(c) for c, immutable in repeatable if immutable} | {id(c.func) for c, immutable in repeatable if immutable}
    reads_calls = any(not immutable for _, immutable in repeatable)
    what = "calls something that reads it" if reads_calls else "reads an attribute or item"
    if not reads_calls and not any(isinstance(n, (ast.Attribute, ast.Subscript)) and id(n) not in fixed for n in ast.walk(value)):
        return
    attributes = {n.attr for n in ast.walk(value) if isinstance(n, ast.Attribute)}
    roots = {n.id for n in ast.walk(value) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    items = any(isinstance(n, ast.Subscript) and id(n) not in fixed for n in ast.walk(value))
    limit = _read_limit(source, uses, assign_end, last_use)
    for node in (n for statement in after for n in ast.walk(statement)):
        start, end = source.span(node) if hasattr(node, "lineno") else (None, None)
        if id(node) in later:
            start = end = source.span(later[id(node)])[1]
        if start is None or start < assign_end or start >= limit:
            continue
        if isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(node.ctx, ast.Load):
            if _may_alias(node, attributes, items, roots) or reads_calls:
                _refuse("the value %s, and an assignment before a use may change it" % what, source, node)
            moves.note(node, "the value %s, and an assignment before a use may change it" % what)
        if isinstance(node, ast.Call) and inert(node):
            continue
        # A yield hands control to the generator's consumer, whose code may run there as a call's would.
        if isinstance(node, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)) and (end <= last_use or start > last_use):
            if touches(node, roots, source.tree):
                _refuse("the value %s, and a call before a use may change it" % what, source, node)
            moves.note(node, "the value %s, and a call before a use may change it" % what)


def _may_alias(store, attributes, items, roots):
    """Whether an attribute or item store may change what the value reads: an attribute of the same name on anything
    (it may be the same object); an item of anything when the value reads an item, or of an object it reads."""
    if isinstance(store, ast.Attribute):
        return store.attr in attributes
    base = store.value
    while isinstance(base, (ast.Attribute, ast.Subscript)):
        base = base.value
    return items or (isinstance(base, ast.Name) and base.id in roots)


def _read_limit(source, uses, assign_end, last_use):
    """Where the uses stop reading: the last use, or the end of a loop begun after the assignment that holds a use."""
    limit = last_use
    for use in uses:
        for parent in source.ancestors(use):
            if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and use is not getattr(parent, "iter", None) and source.span(parent)[0] >= assign_end:
                limit = max(limit, source.span(parent)[1])
    return limit


def _may_run_before(source, store, use, assign_end):
    """Whether `store` can run after the assignment and before `use` reads: it comes first in the text and is not on
    another branch of an if than the use (simplejson's `idx += 1` in the if, `ord0` read by the elif), or a loop
    begun after the assignment holds both (the next turn's use comes after it)."""
    for loop in source.ancestors(use):
        if isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) and source.span(loop)[0] >= assign_end:
            if any(n is use for n in ast.walk(getattr(loop, "iter", None) or ast.Pass())):
                continue
            if any(a is loop for a in source.ancestors(store)):
                return True
    if _on_other_branches(source, store, use):
        return False
    return _store_time(source, store) <= source.span(use)[0]


def _store_time(source, store):
    """Where a store takes effect: after its whole statement for an assignment (its value, which may read the name,
    runs first), after the expression for `:=`, at the target for a loop or with."""
    parent = source.parent[store]
    if isinstance(parent, ast.NamedExpr):
        return source.span(parent)[1]
    statement = source.statement_of(store)
    if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
        return source.span(statement)[1]
    return source.span(store)[0]


def _on_other_branches(source, a, b):
    """Whether `a` and `b` sit on different branches of one if (or conditional expression): only one of them runs."""
    chain_b = [b, *source.ancestors(b)]
    place_b = {id(n): i for i, n in enumerate(chain_b)}
    chain_a = [a, *source.ancestors(a)]
    for i, node in enumerate(chain_a):
        if id(node) not in place_b:
            continue
        j = place_b[id(node)]
        if not i or not j or not isinstance(node, (ast.If, ast.IfExp)):
            return False
        under_a, under_b = chain_a[i - 1], chain_b[j - 1]
        sides = [node.body if isinstance(node, ast.If) else [node.body], node.orelse if isinstance(node, ast.If) else [node.orelse]]
        side_a = next((k for k, side in enumerate(sides) if any(n is under_a for n in side)), None)
        side_b = next((k for k, side in enumerate(sides) if any(n is under_b for n in side)), None)
        return side_a is not None and side_b is not None and side_a != side_b
    return False


def _stored_after_use(source, store, last_use):
    """`tt = time.localtime(stamp)` with the last use in the value: the value is evaluated before its target is bound,
    so this store comes after every use (isodate's LocalTimezone._isdst)."""
    parent = source.parent[store]
    if not isinstance(parent, (ast.Assign, ast.AnnAssign)) or parent.value is None:
        return False
    if store not in (parent.targets if isinstance(parent, ast.Assign) else [parent.target]):
        return False
    start, end = source.span(parent.value)
    return start <= last_use < end
