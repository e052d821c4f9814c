// The worker finds comments with one regex scan instead of Python's tokenizer (several times faster); a file that
// declares UTF-8 on its first lines (`# -*- coding: utf-8 -*-`, 4% of a real tree) takes the scan too, and must get
// exactly the comments the tokenizer finds. Any other declaration, or "coding" that is no declaration, keeps the tokenizer.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { resolvePython } from '../lib/python/interpreter.js';
import { WORKER_SCRIPT } from '../lib/python/worker.js';

const python = (await resolvePython()).path;

const PROBE = `
import json, sys
sys.path.insert(0, sys.argv[1])
from tugworker import facts
from tugworker.positions import Positions
out = []
for text in json.loads(sys.argv[2]):
    data = text.encode("utf-8")
    scanned = facts._scanned_comments(data)
    out.append({"scanned": scanned is not None, "same": scanned is None or scanned == facts._tokenized_comments(data, Positions(data))})
print(json.dumps(out))
`;

const body = 's = "# not a comment"  # a comment, café\nt = """\n# inside\n"""  # after\n';
const sources = [
  `# -*- coding: utf-8 -*-\n${body}`,
  `#!/usr/bin/env python\n# coding=UTF_8\n${body}`,
  `# vim: set fileencoding=utf8 :\n${body}`,
  `# -*- coding: latin-1 -*-\n${body}`,
  `"""decoding and encoding"""\n${body}`,
  `# coding: utf-8\n# coding: cp1252\n${body}`,
];

test('a UTF-8 declaration takes the scan, with the tokenizer\'s comments; other declarations keep the tokenizer', (t) => {
  const out = JSON.parse(execFileSync(python, ['-c', PROBE, path.dirname(WORKER_SCRIPT), JSON.stringify(sources)], { encoding: 'utf8' }));
  t.deepEqual(out.map((o: { scanned: boolean }) => o.scanned), [true, true, true, false, false, false]);
  t.true(out.every((o: { same: boolean }) => o.same));
});
