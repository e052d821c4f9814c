// Every refactor has a typed library function: input checked with the operation's schema, the result typed, failures thrown.
import test from 'ava';
import { changeSignature, checkMerge, extractFunction, extractVariable, inline, moveSymbol, organizeImports, renameSymbol, replay, TugError } from '../lib/index.js';
import { makeRepo } from './helpers/repo.js';

const FILES = {
  'calc.py': 'import sys\nimport os\n\n\ndef area(w, h):\n    return w * h\n\n\ndef show():\n    size = 2 + 3\n    print(size)\n    print(area(1, 2))\n',
  'app.py': 'from calc import area\n\nprint(area(3, 4))\n',
};

test('moveSymbol, changeSignature, organizeImports, extractVariable, extractFunction and inline run as typed functions', async (t) => {
  const repo = await makeRepo(FILES);
  const common = { workspace: repo.root, verify: 'syntax' as const };
  const variable = await extractVariable({ ...common, file: 'calc.py', line: 10, column: 12, end_line: 10, end_column: 17, new_name: 'total' });
  t.regex(variable.git!.branch, /^tug\//);
  const fn = await extractFunction({ ...common, file: 'calc.py', line: 11, column: 5, end_line: 11, end_column: 16, new_name: 'report' });
  t.regex(fn.git!.branch, /^tug\//);
  const inlined = await inline({ ...common, file: 'calc.py', line: 10, column: 5 });
  t.regex(inlined.git!.branch, /^tug\//);
  const imports = await organizeImports({ ...common, file: 'calc.py' });
  t.is(imports.status, 'ok');
  const signature = await changeSignature({ ...common, file: 'calc.py', line: 5, column: 5, new_params: [{ name: 'h' }, { name: 'w' }] });
  t.true(signature.patch.unified_diff.includes('area(4, 3)'), signature.patch.unified_diff);
  const moved = await moveSymbol({ ...common, file: 'calc.py', line: 5, column: 5, destination: 'shapes' });
  t.true(moved.patch.unified_diff.includes('shapes.py'));
  const error = await t.throwsAsync(moveSymbol({ ...common, file: 'calc.py', line: 5, column: 5, to: 'shapes' } as never));
  t.true(error instanceof TugError);
  t.is((error as TugError).code, 'InvalidArgument');
  await repo.cleanup();
});

test('checkMerge and replay run as typed functions: a new caller on the base is a semantic conflict, and replay renames it', async (t) => {
  const repo = await makeRepo(FILES);
  const renamed = await renameSymbol({ workspace: repo.root, file: 'calc.py', line: 5, column: 5, new_name: 'surface', verify: 'syntax' });
  await repo.write('later.py', 'from calc import area\n\nprint(area(5, 6))\n');
  await repo.git('add', 'later.py');
  await repo.git('commit', '-qm', 'a new caller');
  const check = await checkMerge({ workspace: repo.root, branch: renamed.git!.branch });
  t.false(check.clean);
  t.true(JSON.stringify(check.semantic).includes('later.py'), JSON.stringify(check.semantic));
  const again = await replay({ workspace: repo.root, branch: renamed.git!.branch, verify: 'syntax' });
  t.not(again.git!.branch, renamed.git!.branch);
  t.true(again.patch.unified_diff.includes('+print(surface(5, 6))'), again.patch.unified_diff);
  await repo.cleanup();
});
