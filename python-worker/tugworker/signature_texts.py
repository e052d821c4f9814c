# change-signature's texts checked as what they claim to be: a type is one annotation, a default one expression, a
# value one argument. Each is parsed alone and in the place it will stand; a text that parses differently there (`int
# = 5, f` as a type adds a parameter f, `1  # x` comments out the rest of the line) or not at all is refused.
import ast

PLACES = {
    "type": ("def _f(_p: %s): pass", lambda tree: _only_param(tree, "annotation")),
    "default": ("def _f(_p=%s): pass", lambda tree: _only_param(tree, "default")),
    "value": ("_f(%s)", lambda tree: _only_argument(tree)),
}


def _only_param(tree, part):
    function = tree.body[0]
    args = function.args
    every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
    if len(tree.body) != 1 or len(every) != 1:
        return None
    return every[0].annotation if part == "annotation" else (args.defaults[0] if args.defaults else None)


def _only_argument(tree):
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr) or not isinstance(tree.body[0].value, ast.Call):
        return None
    call = tree.body[0].value
    return call.args[0] if len(call.args) == 1 and not call.keywords and not isinstance(call.args[0], ast.Starred) else None


def _problem(kind, text):
    try:
        alone = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError) as error:
        return "is not a Python expression (%s)" % getattr(error, "msg", error)
    template, part = PLACES[kind]
    try:
        placed = part(ast.parse(template % text))
    except (SyntaxError, ValueError):
        placed = None
    if placed is None or ast.dump(placed) != ast.dump(alone):
        return "does not stay one %s where it goes (it would change the code around it)" % ("annotation" if kind == "type" else "argument" if kind == "value" else "default")
    return None


def signature_texts(texts):
    """For each {kind, text}: None when it is one well-formed piece of its kind, else why not."""
    return {"problems": [_problem(t["kind"], t["text"]) for t in texts]}
