# Walks one module's ast and records scopes, binding sites and name uses with Python's own scoping rules.
import ast

from tugworker.positions import string_content_span
from tugworker.returns import returned_call, returned_kind
from tugworker.walk import FastVisitor

DYNAMIC_CALLS = {"getattr", "setattr", "hasattr", "delattr", "eval", "exec", "globals", "locals", "vars", "__import__"}


class _Iteration:
    """Marks a loop target's value as 'an element of this iterable', so element types can be inferred."""

    def __init__(self, iterable):
        self.iterable = iterable


class _Item:
    """Marks a value as 'element `index` of this value', for `a, b = f()` where f returns a declared tuple."""

    def __init__(self, value, index):
        self.value, self.index = value, index


def _plain_tuple(target):
    return isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts)


class ScopeWalker(FastVisitor):
    def __init__(self, positions):
        self.pos = positions
        self.scopes = []
        self.bindings = []
        self.uses = []  # name uses, resolved into references at the end
        self.use_of_node = {}
        self.attr_of_node = {}
        self.declared = {}  # scope id -> {"global": set, "nonlocal": set}
        self.params, self.imports, self.attributes, self.calls = [], [], [], []
        self.classes, self.functions, self.strings, self.dynamic = [], [], [], []
        self.all_entries = None
        self.keyword_keys = set()  # ids of string keys in `**{...}` call arguments
        self.stack = []
        self.binding_kind = "variable"

    # -- scopes and bindings -------------------------------------------------
    @property
    def scope(self):
        return self.stack[-1]

    def push(self, kind, name, node):
        span = [0, len(self.pos.data)] if kind == "module" else self.pos.node_span(node)
        scope_id = len(self.scopes)
        self.scopes.append({"id": scope_id, "kind": kind, "name": name, "parent": self.stack[-1] if self.stack else None, "span": span})
        self.declared[scope_id] = {"global": set(), "nonlocal": set()}
        self.stack.append(scope_id)
        return scope_id

    def pop(self):
        self.stack.pop()

    def bind(self, name, span, kind, scope=None, type_hint=None, value=None):
        scope = self.scope if scope is None else scope
        binding = {"id": len(self.bindings), "scope": scope, "name": name, "kind": kind, "span": span, "type_hint": type_hint, "value": value}
        self.bindings.append(binding)
        return binding["id"]

    def use(self, name, span, ctx, node=None, scope=None):
        index = len(self.uses)
        self.uses.append({"name": name, "span": span, "scope": self.scope if scope is None else scope, "ctx": ctx})
        if node is not None:
            self.use_of_node[id(node)] = index
        return index

    def nearest_non_comprehension(self):
        for scope_id in reversed(self.stack):
            if self.scopes[scope_id]["kind"] != "comprehension":
                return scope_id
        return self.stack[0]

    # -- module, functions, classes, lambdas, comprehensions -------------------
    def visit_Module(self, node):
        self.push("module", None, node)
        self.generic_visit(node)

    def visit_FunctionDef(self, node):
        self._function(node, "def")

    def visit_AsyncFunctionDef(self, node):
        self._function(node, "def")

    def _function(self, node, keyword):
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._visit_defaults(node.args)
        self._visit_annotations(node.args, node.returns)
        start = self.pos.offset(node.lineno, node.col_offset)
        span = self.pos.find_name(node.name, start, after=keyword) or [start, start]
        binding = self.bind(node.name, span, "function")
        is_method = self.scopes[self.scope]["kind"] == "class"
        scope = self.push("function", node.name, node)
        self._bind_params(node.args, binding, scope)
        for statement in node.body:
            self.visit(statement)
        self.pop()
        fact = {"binding": binding, "scope": scope, "is_method": is_method, "decorators": list(node.decorator_list), "returns": node.returns}
        gives = returned_kind(node)
        if gives:
            fact["gives"] = gives
        elif (makes := returned_call(node)) is not None:
            fact["makes"] = makes
        self.functions.append(fact)

    def visit_Lambda(self, node):
        self._visit_defaults(node.args)
        scope = self.push("lambda", None, node)
        self._bind_params(node.args, None, scope)
        self.visit(node.body)
        self.pop()

    def _visit_defaults(self, args):
        for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
            self.visit(default)

    def _visit_annotations(self, args, returns):
        every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
        for arg in every:
            if arg.annotation is not None:
                self.visit_annotation(arg.annotation)
        if returns is not None:
            self.visit_annotation(returns)

    def _bind_params(self, args, function_binding, scope):
        ordered = [(a, "posonly") for a in args.posonlyargs] + [(a, "normal") for a in args.args]
        if args.vararg:
            ordered.append((args.vararg, "vararg"))
        ordered += [(a, "kwonly") for a in args.kwonlyargs]
        if args.kwarg:
            ordered.append((args.kwarg, "kwarg"))
        for index, (arg, kind) in enumerate(ordered):
            start = self.pos.offset(arg.lineno, arg.col_offset)
            binding = self.bind(arg.arg, [start, start + len(arg.arg.encode("utf-8"))], "parameter", type_hint=arg.annotation)
            if function_binding is not None:
                self.params.append({"function_binding": function_binding, "scope": scope, "name": arg.arg, "binding": binding, "kind": kind, "index": index, "has_default": False})

    def visit_ClassDef(self, node):
        for decorator in node.decorator_list:
            self.visit(decorator)
        for base in node.bases:
            self.visit(base)
        for keyword in node.keywords:
            self.visit(keyword.value)
        start = self.pos.offset(node.lineno, node.col_offset)
        span = self.pos.find_name(node.name, start, after="class") or [start, start]
        binding = self.bind(node.name, span, "class")
        scope = self.push("class", node.name, node)
        for statement in node.body:
            self.visit(statement)
        self.pop()
        self.classes.append({"binding": binding, "scope": scope, "bases": list(node.bases), "decorators": list(node.decorator_list)})

    def _comprehension(self, node, elements):
        generators = node.generators
        self.visit(generators[0].iter)
        self.push("comprehension", None, node)
        for index, generator in enumerate(generators):
            if index > 0:
                self.visit(generator.iter)
            self._loop_target(generator.target, generator.iter)
            for condition in generator.ifs:
                self.visit(condition)
        for element in elements:
            self.visit(element)
        self.pop()

    def visit_ListComp(self, node):
        self._comprehension(node, [node.elt])

    visit_SetComp = visit_ListComp
    visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node):
        self._comprehension(node, [node.key, node.value])

    # -- names and targets ---------------------------------------------------
    def _target(self, target, kind, type_hint=None, value=None):
        previous = self.binding_kind
        self.binding_kind = kind
        if isinstance(target, ast.Name):
            self._store(target, type_hint, value)
        else:
            self.visit(target)
        self.binding_kind = previous

    def _loop_target(self, target, iterable):
        """`for x in xs` binds an element of xs; `for k, v in pairs` binds the parts of one."""
        if _plain_tuple(target):
            for index, element in enumerate(target.elts):
                self._target(element, "for_target", value=_Item(_Iteration(iterable), index))
        else:
            self._target(target, "for_target", value=_Iteration(iterable))

    def _store(self, node, type_hint=None, value=None):
        span = self.pos.node_span(node)
        declared = self.declared[self.scope]
        if node.id in declared["global"] or node.id in declared["nonlocal"]:
            self.use(node.id, span, "store", node)
        else:
            self.bind(node.id, span, self.binding_kind, type_hint=type_hint, value=value)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Store):
            self._store(node)
        else:
            self.use(node.id, self.pos.node_span(node), "del" if isinstance(node.ctx, ast.Del) else "load", node)

    def visit_Assign(self, node):
        self.visit(node.value)
        # `x = value` and chains `a = b = value`: each name holds the value.
        single = all(isinstance(t, ast.Name) for t in node.targets)
        for target in node.targets:
            if len(node.targets) == 1 and _plain_tuple(target):
                for index, element in enumerate(target.elts):
                    self._target(element, "variable", value=_Item(node.value, index))
                continue
            self._target(target, "variable", value=node.value if single else None)
            self._attribute_value(target, value=node.value)
        self._maybe_all(node.targets, node.value)

    def visit_AugAssign(self, node):
        self.visit(node.value)
        if isinstance(node.target, ast.Name):
            self.use(node.target.id, self.pos.node_span(node.target), "load", node.target)
        else:
            self.visit(node.target)
        self._maybe_all([node.target], node.value)

    def visit_AnnAssign(self, node):
        self.visit_annotation(node.annotation)
        if node.value is not None:
            self.visit(node.value)
        self._target(node.target, "variable", type_hint=node.annotation, value=node.value)
        self._attribute_value(node.target, type_hint=node.annotation, value=node.value)

    def _attribute_value(self, target, type_hint=None, value=None):
        """`self.x = value` / `self.x: T = value`: what an attribute store assigns, for inferring its type."""
        index = self.attr_of_node.get(id(target)) if isinstance(target, ast.Attribute) else None
        if index is not None:
            self.attributes[index]["type_hint"] = type_hint
            self.attributes[index]["value"] = value

    def visit_NamedExpr(self, node):
        self.visit(node.value)
        scope = self.nearest_non_comprehension()
        self.bind(node.target.id, self.pos.node_span(node.target), "variable", scope=scope, value=node.value)

    def visit_For(self, node):
        self.visit(node.iter)
        self._loop_target(node.target, node.iter)
        for statement in node.body + node.orelse:
            self.visit(statement)

    visit_AsyncFor = visit_For

    def visit_With(self, node):
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self._target(item.optional_vars, "with_target", value=item.context_expr)
        for statement in node.body:
            self.visit(statement)

    visit_AsyncWith = visit_With

    def visit_ExceptHandler(self, node):
        if node.type is not None:
            self.visit(node.type)
        if node.name:
            start = self.pos.offset(node.lineno, node.col_offset)
            span = self.pos.find_name(node.name, start, after="as")
            if span:
                self.bind(node.name, span, "except_target", value=node.type)
        for statement in node.body:
            self.visit(statement)

    def _pattern_name(self, node, name):
        if name:
            end = self.pos.offset(node.end_lineno, node.end_col_offset)
            self.bind(name, [end - len(name.encode("utf-8")), end], "match_target")

    def visit_MatchAs(self, node):
        if node.pattern is not None:
            self.visit(node.pattern)
        self._pattern_name(node, node.name)

    def visit_MatchStar(self, node):
        self._pattern_name(node, node.name)

    def visit_MatchMapping(self, node):
        for key in node.keys:
            self.visit(key)
        for pattern in node.patterns:
            self.visit(pattern)
        if node.rest:
            start, end = self.pos.node_span(node)
            span = self.pos.find_name(node.rest, start, end, after="**")
            if span:
                self.bind(node.rest, span, "match_target")

    def _declare(self, node, kind):
        start, end = self.pos.node_span(node)
        cursor = start + len(kind)
        for name in node.names:
            self.declared[self.scope][kind].add(name)
            span = self.pos.find_name(name, cursor, end)
            if span:
                self.use(name, span, "load")
                cursor = span[1]

    def visit_Global(self, node):
        self._declare(node, "global")

    def visit_Nonlocal(self, node):
        self._declare(node, "nonlocal")

    from tugworker.imports import _record_import, visit_Import, visit_ImportFrom  # noqa: E402
    from tugworker.expressions import (  # noqa: E402
        _maybe_all,
        visit_annotation,
        visit_Attribute,
        visit_Call,
        visit_Constant,
    )
