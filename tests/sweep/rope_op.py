# Runs one rope refactoring at a sweep position and writes its changes into the checkout it is given, so the sweep
# can test rope's result the same way it tests tug's. Prints one JSON line: {"status": "ok"|"nochange"|"refused"|"crash", ...}.
# Usage: python3 rope_op.py ROOT POSITION_JSON
import json
import sys
import traceback

root, position = sys.argv[1], json.loads(sys.argv[2])


def offset(text_bytes, line, col):
    # line/col are 1-based, col counts UTF-8 bytes (as ast and tug do); rope wants a character offset.
    lines = text_bytes.split(b'\n')
    before = b'\n'.join(lines[: line - 1]) + (b'\n' if line > 1 else b'')
    return len((before + lines[line - 1][: col - 1]).decode('utf-8'))


def main():
    from rope.base.project import Project
    from rope.base import exceptions
    p = position
    project = Project(root, ropefolder=None)
    resource = project.get_resource(p['file'])
    data = open(f"{root}/{p['file']}", 'rb').read()
    at = offset(data, p['line'], p['col']) if 'line' in p else 0
    op = p['op']
    try:
        if op == 'rename-symbol':
            from rope.refactor.rename import Rename
            changes = Rename(project, resource, at).get_changes(p['name'] + '_sw')
        elif op == 'move-symbol':
            from rope.refactor.move import create_move
            dest = p['destination']
            open(f'{root}/{dest}', 'a').close()
            project.validate()
            changes = create_move(project, resource, at).get_changes(project.get_resource(dest))
        elif op == 'change-signature':
            from rope.refactor import change_signature as cs
            sig = cs.ChangeSignature(project, resource, at)
            names = [a[0] for a in sig.get_args()]
            if p['kind'] == 'swap':
                plain = [e['name'] for e in p['params'] if not e['name'].startswith('*') and e['name'] != '/']
                first = 1 if p.get('method') else 0
                order = list(range(len(names)))
                i, j = names.index(plain[0]), names.index(plain[1])
                order[i], order[j] = order[j], order[i]
                changers = [cs.ArgumentReorderer(order)]
            elif p['kind'] == 'add':
                idx = len([n for n in names if not n.startswith('*')])
                changers = [cs.ArgumentAdder(idx, 'sweep_extra', 'None')]
            else:
                removed = [n for n in names if n not in {e['name'] for e in p['params']} and not n.startswith('*') and n not in ('self', 'cls')]
                changers = [cs.ArgumentRemover(names.index(removed[-1]))]
            changes = sig.get_changes(changers)
        elif op == 'organize-imports':
            from rope.refactor.importutils import ImportOrganizer
            changes = ImportOrganizer(project).organize_imports(resource)
        elif op in ('extract-variable', 'extract-function'):
            from rope.refactor.extract import ExtractVariable, ExtractMethod
            end = offset(data, p['end_line'], p['end_col'])
            cls = ExtractVariable if op == 'extract-variable' else ExtractMethod
            changes = cls(project, resource, at, end).get_changes(p['new_name'])
        elif op == 'inline':
            from rope.refactor.inline import create_inline
            changes = create_inline(project, resource, at).get_changes()
        else:
            return {'status': 'refused', 'reason': f'no such operation {op}'}
    except (exceptions.RefactoringError, exceptions.BadIdentifierError, exceptions.ModuleSyntaxError) as e:
        return {'status': 'refused', 'code': type(e).__name__, 'reason': str(e)}
    except Exception as e:  # anything else is rope failing, not refusing
        return {'status': 'crash', 'code': type(e).__name__, 'reason': str(e), 'trace': traceback.format_exc()[-1500:]}
    if changes is None or not changes.get_changed_resources():
        return {'status': 'nochange'}
    project.do(changes)
    return {'status': 'ok', 'files': sorted(r.path for r in changes.get_changed_resources())}


print(json.dumps(main()))
