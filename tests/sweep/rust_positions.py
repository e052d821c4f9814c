# Lists the positions where each Rust refactor could apply in a crate, for tests/sweep/run.mjs to sample from.
# rust-analyzer is what tug itself uses, so this reads the source with plain patterns instead, line by line:
# definitions and lets (rename-symbol), lets and calls of the crate's own functions (inline), call expressions
# (extract-variable), runs of whole one-line statements (extract-function), files with `use` (organize-imports),
# fns whose parameter list fits on one line (change-signature: swap the first two parameters, or add one at the end),
# top-level items (move-symbol).
# Usage: python3 rust_positions.py ROOT FILE... ; prints one JSON object per line.
import json
import re
import sys

root, files = sys.argv[1], sys.argv[2:]
# not after a quote: `&'static str` is a lifetime; `_` binds nothing, so it is no position
DEF = re.compile(r"(?<!['\w])(fn|struct|enum|trait|type|const|static|mod)\s+([A-Za-z_]\w*)")
LET = re.compile(r'\blet\s+(mut\s+)?([a-z_]\w+|[a-z])\s*(:[^=]*)?=(?!=)')
PARAM = re.compile(r'[(,]\s*(mut\s+)?([a-z_]\w*)\s*:(?!:)')
CALL = re.compile(r'(?<![\w.!])((?:[A-Za-z_]\w*::)*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\(')
KEYWORDS = {'if', 'while', 'for', 'match', 'return', 'fn', 'Some', 'Ok', 'Err', 'loop', 'in', 'as', 'let', 'mut', 'impl', 'where'}


def emit(**kw):
    print(json.dumps(kw, sort_keys=True))


def balanced_end(line, open_at):
    depth = 0
    for i in range(open_at, len(line)):
        c = line[i]
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == '"':
            return None  # strings: keep the sample simple and skip them
    return None


def split_params(text):
    # The parameters of a one-line list at its top-level commas; None when one is not a plain `name: Type`.
    parts, depth, cur = [], 0, ''
    for c in text:
        if c in '(<[{':
            depth += 1
        elif c in ')>]}':
            depth -= 1
        if c == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += c
    if cur.strip():
        parts.append(cur.strip())
    names = []
    for part in parts:
        if re.fullmatch(r"(&('\w+\s+)?(mut\s+)?|mut\s+)?self(\s*:.*)?", part):
            continue
        m = re.fullmatch(r'(mut\s+)?([a-z_]\w*)\s*:(?!:).+', part)
        if not m or m.group(2) == '_':
            return None
        names.append(m.group(2))
    return names


def signature_positions(file, n, line):
    m = re.search(r'(?<![\'\w])fn\s+([A-Za-z_]\w*)', line)
    if not m:
        return
    open_at = line.find('(', m.end())
    end = balanced_end(line, open_at) if open_at >= 0 else None
    if not end:
        return
    names = split_params(line[open_at + 1:end - 1])
    if names is None:
        return
    at = dict(file=file, line=n, col=m.start(1) + 1, name=m.group(1))
    if len(names) >= 2:
        swapped = [names[1], names[0], *names[2:]]
        emit(op='change-signature', kind='swap', params=[{'name': x} for x in swapped], **at)
    if names:  # not on a parameterless fn: most are #[test] fns, which cannot take one
        emit(op='change-signature', kind='add', params=[*({'name': x} for x in names), {'name': 'sweep_extra', 'type': 'u8', 'value': '0'}], **at)


def complete(stmt):
    return stmt.endswith(';') and all(stmt.count(a) == stmt.count(b) for a, b in ('()', '[]', '{}')) and '"' not in stmt \
        and not stmt.startswith(('use ', 'pub ', 'mod ', '#', '//', 'return', 'break', 'continue', '}')) and '?' not in stmt


crate_fns = set()
texts = {}
for file in files:
    text = open(f'{root}/{file}', encoding='utf-8').read()
    texts[file] = text.split('\n')
    crate_fns |= {m.group(2) for m in DEF.finditer(text) if m.group(1) == 'fn'}

for file, lines in texts.items():
    if any(l.startswith('use ') or l.lstrip().startswith('use ') for l in lines):
        emit(op='organize-imports', file=file)
    depth = 0  # brace depth at the start of each line: statements inside a body are at depth >= 1
    run = []
    for n, raw in enumerate(lines, 1):
        line = raw.split('//')[0] if '"' not in raw else raw
        stripped = line.strip()
        code = stripped and not stripped.startswith(('//', '#', '*', '/*'))
        if code:
            for m in DEF.finditer(line):
                emit(op='rename-symbol', file=file, line=n, col=m.start(2) + 1, name=m.group(2), kind=m.group(1))
            # move-symbol: a top-level item (at column 0 of a module file) into a new module `sweep_moved` of the
            # crate; a `pub` one keeps a `pub use` at the old place (a published crate's path is refused without it)
            top = re.match(r'(pub(?:\([^)]*\))?\s+)?((?:const\s+|unsafe\s+|async\s+)*fn|struct|enum|trait|type|const|static)\s+([A-Za-z_]\w*)', raw)
            if top and depth == 0:
                emit(op='move-symbol', file=file, line=n, col=top.start(3) + 1, name=top.group(3), kind=top.group(2).split()[-1], keep_reexport=bool(top.group(1)))
            if re.search(r'\bfn\s', line):
                signature_positions(file, n, line)
                sig = line[line.find('('):]
                for m in PARAM.finditer(sig):
                    emit(op='rename-symbol', file=file, line=n, col=line.find('(') + m.start(2) + 1, name=m.group(2), kind='parameter')
            for m in LET.finditer(line):
                emit(op='rename-symbol', file=file, line=n, col=m.start(2) + 1, name=m.group(2), kind='local')
                emit(op='inline', file=file, line=n, col=m.start(2) + 1, name=m.group(2), kind='local')
            if depth >= 1 and not re.search(r'\bfn\s', line) and not stripped.startswith(('use ', 'pub use')):
                for m in CALL.finditer(line):
                    callee = m.group(1).split('.')[-1].split('::')[-1]
                    if callee in KEYWORDS or m.group(1).split('::')[0] in KEYWORDS:
                        continue
                    end = balanced_end(line, m.end() - 1)
                    if end:
                        emit(op='extract-variable', file=file, line=n, col=m.start(1) + 1, end_line=n, end_col=end + 1, kind='call')
                    if callee in crate_fns and '.' not in m.group(1):
                        col = m.start(1) + len(m.group(1)) - len(callee) + 1
                        emit(op='inline', file=file, line=n, col=col, name=callee, kind='call')
        # runs of whole one-line statements at one indentation inside a body
        indent = len(raw) - len(raw.lstrip())
        if depth >= 1 and code and complete(stripped) and (not run or run[-1][2] == indent and run[-1][0] == n - 1):
            run.append((n, raw, indent))
            for k in (1, 2, 3):
                if len(run) >= k:
                    first = run[-k]
                    emit(op='extract-function', file=file, line=first[0], col=first[2] + 1, end_line=n, end_col=len(raw.rstrip()) + 1, stmts=k)
        elif depth >= 1 and code and complete(stripped):
            run = [(n, raw, indent)]
            emit(op='extract-function', file=file, line=n, col=indent + 1, end_line=n, end_col=len(raw.rstrip()) + 1, stmts=1)
        else:
            run = []
        depth += line.count('{') - line.count('}')
