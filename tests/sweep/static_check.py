# The static half of the sweep's independent check in one interpreter: every given file must compile, and pyflakes
# lists the names each one leaves undefined (without line numbers, so that moved code compares). Run with -I from
# outside the corpus, so that the pyflakes corpus's own (changed) copy is not the pyflakes that runs.
# Usage: python3 -I static_check.py ROOT FILE... ; prints one JSON object {"syntax": str|null, "undefined": [str]}.
import ast
import json
import os
import sys

from pyflakes import checker

root, files = sys.argv[1], sys.argv[2:]
undefined = set()
for rel in files:
    full = os.path.join(root, rel)
    if not os.path.exists(full):
        continue
    with open(full, 'rb') as handle:
        source = handle.read()
    try:
        compile(source, full, 'exec', dont_inherit=True)
        tree = ast.parse(source, filename=full)
    except (SyntaxError, ValueError) as error:
        print(json.dumps({'syntax': f'{rel}: {error.__class__.__name__}: {error}', 'undefined': []}))
        sys.exit(0)
    for message in checker.Checker(tree, filename=rel).messages:
        text = message.message % message.message_args
        # The same findings the command-line pyflakes prints as "undefined name …" (plain and in __all__).
        if 'undefined name ' in text:
            undefined.add(f'{rel}: {text}')
print(json.dumps({'syntax': None, 'undefined': sorted(undefined)}))
