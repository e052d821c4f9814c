# One block of top-level imports laid out the way ruff's isort rules (I001, default settings) lay it out: sections,
# order, merging, wrapping and the blank lines after it. organize_imports.py decides when a file is plain enough.
import re

FUTURE, STDLIB, THIRD_PARTY, FIRST_PARTY, LOCAL_FOLDER = range(5)


class Unsupported(Exception):
    """The file needs something this engine does not reproduce; ruff itself organizes it."""


def _natural(text):
    """natord's order: a run of digits compares with another as a number, with any other character as a digit does."""
    return [(48.5, int(part), part) if part.isdigit() else (ord(part), 0, "") for part in re.findall(r"\d+|\D", text)]


_lower = str.lower


def _cased_upper(name):
    cased = False
    for char in name:
        if char.islower():
            return False
        if char.isupper():
            cased = True
    return cased


def member_key(name, asname):
    kind = 0 if len(name) > 1 and _cased_upper(name) else 1 if name[:1].isupper() else 2
    return (name != "*", kind, _natural(_lower(name)), _natural(name), asname is not None, _natural(asname or ""))


def module_key(module, asname, level, first_alias):
    # ruff's Distance: relative imports (furthest first) before absolute ones; a missing module name before any.
    distance = (1, -level) if level else (2, 0)
    name = (0,) if module is None else (1, _natural(_lower(module)), _natural(module))
    alias = (0,) if first_alias is None else (1, member_key(*first_alias))
    return (distance, name, alias, asname is not None, _natural(asname or ""))


class Settings:
    """The isort settings this engine reproduces (ruff's names); any other makes the file ruff's."""

    KNOWN = {"known-first-party": FIRST_PARTY, "known-third-party": THIRD_PARTY, "known-local-folder": LOCAL_FOLDER, "extra-standard-library": STDLIB}

    def __init__(self, isort, first_party, stdlib):
        self.combine_as = False
        # ruff's order of precedence: first party, third party, local folder, then the extra standard library.
        known = {section: [] for section in (FIRST_PARTY, THIRD_PARTY, LOCAL_FOLDER, STDLIB)}
        known[FIRST_PARTY] += first_party
        for key, value in isort.items():
            if key == "combine-as-imports" and isinstance(value, bool):
                self.combine_as = value
            elif key in self.KNOWN and isinstance(value, list) and all(isinstance(v, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", v) for v in value):
                known[self.KNOWN[key]] += value
            else:
                raise Unsupported("the isort setting %s" % key)
        self.known = [(name, section) for section in (FIRST_PARTY, THIRD_PARTY, LOCAL_FOLDER, STDLIB) for name in known[section]]
        self.submodules = any("." in name for name, _ in self.known)
        self.stdlib = stdlib

    def _known(self, module):
        candidates = [".".join(module.split(".")[:size]) for size in range(module.count(".") + 1, 0, -1)] if self.submodules else [module.split(".")[0]]
        for candidate in candidates:
            for name, section in self.known:
                if name == candidate:
                    return section
        return None

    def categorize(self, module, level):
        if level == 0 and module.split(".")[0] == "__future__":
            return FUTURE
        if level:
            return LOCAL_FOLDER
        known = self._known(module)
        if known is not None:
            return known
        if module.split(".")[0] in self.stdlib:
            return STDLIB
        return FIRST_PARTY if module == "__main__" else THIRD_PARTY


def _from_name(level, module):
    return "." * level + (module or "")


def _alias(name, asname):
    return name if asname is None else "%s as %s" % (name, asname)


def render(imports, settings, line_length, indent):
    """The block's text from its annotated statements (see organize_imports.annotate), ending in a newline.

    `indent` gives the file's indentation unit; it is asked only when a statement has to wrap.
    """
    straight = {}  # (name, asname) -> {first, atop, inline}
    froms = {}  # one statement's key -> {first, atop, inline, trailing, aliases: {(name, asname): comments}, comma}
    for index, statement in enumerate(imports):
        names = statement["names"]
        if statement["kind"] == "import":
            for position, (name, asname) in enumerate(names):
                entry = straight.setdefault((name, asname), {"first": index, "atop": [], "inline": []})
                if position == 0:
                    # ruff keeps a statement's comments with its first name.
                    entry["atop"] += statement["atop"]
                    entry["inline"] += statement["inline"]
            continue
        module, level = statement["module"], statement["level"]
        for position, alias in enumerate(names):
            name, asname = alias["name"], alias["asname"]
            # As ruff does: `from m import *` stays a statement of its own, `from m import x as y` too unless
            # combine-as-imports.
            key = ("*", module, level) if name == "*" else ("from", module, level) if asname is None or settings.combine_as else ("as", module, level, name, asname)
            entry = froms.setdefault(key, {"first": index, "atop": [], "inline": [], "trailing": [], "aliases": {}, "comma": False})
            if position == 0:
                for part in ("atop", "inline", "trailing"):
                    entry[part] += statement[part]
            comments = entry["aliases"].setdefault((name, asname), {"atop": [], "inline": [], "trailing": []})
            for part in ("atop", "inline", "trailing"):
                comments[part] += alias[part]
            if statement["trailing_comma"]:
                entry["comma"] = True
    sections = {}
    for (name, asname), entry in straight.items():
        section = settings.categorize(name, 0)
        sections.setdefault(section, ([], []))[0].append((module_key(name, asname, 0, None), entry["first"], name, asname, entry))
    for key, entry in froms.items():
        module, level = key[1], key[2]
        aliases = sorted(entry["aliases"].items(), key=lambda item: member_key(*item[0]))
        section = settings.categorize(_from_name(level, module), level)
        sections.setdefault(section, ([], []))[1].append((module_key(module, None, level, aliases[0][0]), entry["first"], module, level, aliases, entry))
    out = []
    for section in sorted(sections):
        if out:
            out.append("\n")
        plain, from_ = (sorted(items, key=lambda item: (item[0], item[1])) for items in sections[section])
        straight, froms = [("import", item) for item in plain], [("from", item) for item in from_]
        # The future section lists `from` imports first; every other section its plain imports first.
        ordered = froms + straight if section == FUTURE else straight + froms
        for position, (kind, item) in enumerate(ordered):
            if kind == "import":
                out.append(_format_import(item[2], item[3], item[4], position == 0))
            else:
                out.append(_format_from(item[2], item[3], item[4], item[5], position == 0, line_length, indent))
    return "".join(out)


def _atop(comments, first, unit=""):
    # A commented statement gets a blank line above its comments, unless it opens its section.
    return ("" if first or not comments else "\n") + "".join("%s%s\n" % (unit, comment) for comment in comments)


def _inline(comments):
    return "".join("  " + comment for comment in comments)


def _format_import(name, asname, entry, first):
    return _atop(entry["atop"], first) + "import " + _alias(name, asname) + _inline(entry["inline"]) + "\n"


def _format_from(module, level, aliases, entry, first, line_length, indent):
    head = "from %s import " % _from_name(level, module)
    star = any(name == "*" for (name, _), _ in aliases)
    quiet = all(not (c["atop"] or c["inline"] or c["trailing"]) for _, c in aliases)
    if star or (not entry["comma"] and (len(aliases) == 1 or quiet)):
        comments = entry["inline"] + [text for _, c in aliases for part in ("atop", "inline", "trailing") for text in c[part]] + entry["trailing"]
        single = head + ", ".join(_alias(*alias) for alias, _ in aliases) + _inline(comments)
        if star or len(single) <= line_length:
            return _atop(entry["atop"], first) + single + "\n"
    unit = indent()
    lines = [_atop(entry["atop"], first), head, "(", _inline(entry["inline"]), "\n"]
    for alias, comments in aliases:
        lines += [_atop(comments["atop"], True, unit), unit, _alias(*alias), ",", _inline(comments["inline"]), "\n", _atop(comments["trailing"], True, unit)]
    lines += [")", _inline(entry["trailing"]), "\n"]
    return "".join(lines)
