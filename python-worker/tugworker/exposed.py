# Which names a run of statements may read before assigning them itself: the values it takes from the code before it.
# extract-function passes exactly these in. A loop variable the range reassigns is not one of them, even when an
# earlier loop used the same name (passing it would fail when that earlier loop never ran).
import ast

COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def loads(node):
    """The names a node reads when it runs, leaving out those a comprehension or lambda inside it binds itself."""
    found = []

    def visit(n, local):
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load) and n.id not in local:
                found.append(n.id)
            return
        if isinstance(n, COMPREHENSIONS):
            inner = set(local)
            for generator in n.generators:
                visit(generator.iter, inner)
                inner |= {t.id for t in ast.walk(generator.target) if isinstance(t, ast.Name)}
                for condition in generator.ifs:
                    visit(condition, inner)
            for part in (n.key, n.value) if isinstance(n, ast.DictComp) else (n.elt,):
                visit(part, inner)
            return
        if isinstance(n, ast.Lambda):
            for default in n.args.defaults + [d for d in n.args.kw_defaults if d is not None]:
                visit(default, local)
            visit(n.body, set(local) | {a.arg for a in ast.walk(n.args) if isinstance(a, ast.arg)})
            return
        for child in ast.iter_child_nodes(n):
            visit(child, local)

    visit(node, set())
    return found


def _stored(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def exposed(statements):
    """Names some read in `statements` may take from before them: on some path to the read nothing in the statements
    assigned them. Branches join by intersection; a loop, a `try` or a `match` may not run its body, so what it assigns
    counts after it only where it must have run."""
    return _flow(statements)[0]


def assigned(statements):
    """Names the statements assign on every path that runs on past them (a branch that returns or raises does not)."""
    return _flow(statements)[1]


def _falls_through(body):
    return not (body and isinstance(body[-1], (ast.Return, ast.Raise, ast.Break, ast.Continue)))


def _join(paths):
    """What every path that goes on after a branching statement has assigned."""
    going_on = [defined for body, defined in paths if _falls_through(body)]
    return set.intersection(*going_on) if going_on else set().union(*(d for _, d in paths))


def _flow(statements):
    found = set()

    def read(node, defined):
        found.update(name for name in loads(node) if name not in defined)

    def block(body, defined):
        defined = set(defined)
        for statement in body:
            defined = step(statement, defined)
        return defined

    def step(s, defined):
        if isinstance(s, (ast.Assign, ast.AnnAssign)):
            if s.value is not None:
                read(s.value, defined)
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            for target in targets:
                read(target, defined)  # subscripts and attributes in a target read their base and index
            if s.value is None:
                return defined  # `x: int` alone binds nothing
            return defined | _stored(s.value) | set().union(*(_stored(t) for t in targets))
        if isinstance(s, ast.AugAssign):
            read(s.value, defined)
            if isinstance(s.target, ast.Name):
                if s.target.id not in defined:
                    found.add(s.target.id)
                return defined | {s.target.id}
            read(s.target, defined)
            return defined
        if isinstance(s, (ast.For, ast.AsyncFor)):
            read(s.iter, defined)
            block(s.body, defined | _stored(s.target))
            block(s.orelse, defined)
            return defined
        if isinstance(s, ast.While):
            read(s.test, defined)
            block(s.body, defined | _stored(s.test))
            block(s.orelse, defined)
            return defined | _stored(s.test)
        if isinstance(s, ast.If):
            read(s.test, defined)
            after_test = defined | _stored(s.test)
            return _join([(s.body, block(s.body, after_test)), (s.orelse, block(s.orelse, after_test))])
        if isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                read(item.context_expr, defined)
                if item.optional_vars is not None:
                    read(item.optional_vars, defined)
                    defined = defined | _stored(item.optional_vars)
            return block(s.body, defined)
        if isinstance(s, ast.Try) or type(s).__name__ == "TryStar":
            # The body may stop anywhere, so a handler sees only what was assigned before the try; after it, a name
            # is assigned when the body (with its else) and every handler that goes on assign it.
            tail = s.orelse or s.body
            paths = [(tail, block(s.orelse, block(s.body, defined)))]
            for handler in s.handlers:
                if handler.type is not None:
                    read(handler.type, defined)
                caught = {handler.name} if handler.name else set()
                paths.append((handler.body, block(handler.body, defined | caught) - caught))  # `as` names are deleted
            return block(s.finalbody, _join(paths) | defined)
        if type(s).__name__ == "Match":
            read(s.subject, defined)
            for case in s.cases:
                bound = {n for n in ast.walk(case.pattern) for n in [getattr(n, "name", None)] if isinstance(n, str)}
                if case.guard is not None:
                    read(case.guard, defined | bound)
                block(case.body, defined | bound)
            return defined
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            # Decorators, defaults and bases run now; the body later, but what it reads from here must be bound by
            # then, so it counts as read now.
            read(s, defined)
            return defined | {s.name}
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            return defined | {(a.asname or a.name).split(".")[0] for a in s.names if a.name != "*"}
        read(s, defined)
        return defined | _stored(s)

    defined = block(statements, set())
    return found, defined
