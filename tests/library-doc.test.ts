// Runs the tool-loop example of docs/LIBRARY.md as written, against a real repository, and the agentTools contract.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { agentTools, availableTools } from '../lib/index.js';
import { PROJECT_ROOT } from './helpers/golden.js';
import { makeRepo } from './helpers/repo.js';

test('the docs/LIBRARY.md example runs as written', async (t) => {
  const doc = await readFile(path.join(PROJECT_ROOT, 'docs', 'LIBRARY.md'), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(doc)?.[1];
  t.truthy(code);
  // Inside the package, so `import 'tugtool'` resolves to this checkout (package self-reference).
  const script = path.join(PROJECT_ROOT, 'dist', 'library-example.mjs');
  await writeFile(script, code!);
  const repo = await makeRepo({ 'app.py': 'def total():\n    return 1\n\nprint(total())\n' });
  const run = await execa('node', [script, repo.root], { reject: false });
  t.is(run.exitCode, 0, run.stderr);
  const lines = run.stdout.split('\n').map((l) => JSON.parse(l));
  t.deepEqual(lines[0], { tool: 'tug_snapshot', ok: true });
  t.deepEqual(lines[1], { tool: 'tug_rename_symbol', ok: true, branch: 'tug/rename/total-to-compute_total' });
  t.deepEqual(lines[2], { tool: 'tug_rename_symbol', ok: false, error: 'InvalidArgument' });
  t.deepEqual(lines[3], { tools: availableTools().length }, 'every operation plus the seed alias run_pty_cmd');
  await repo.cleanup();
});

test('agentTools failures carry error and exit_code, and bad arguments name each field', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const tools = new Map(agentTools({ workspace: repo.root }).map((tool) => [tool.name, tool]));
  const bad = await tools.get('tug_apply_patchset')!.execute({ patchset: { edits: [{ file: 'a.py', new_text: 2 }] }, verify: 'maybe' });
  t.is(bad['exit_code'], 2);
  t.regex(String(bad['error']), /^InvalidArgument/);
  const fields = ((bad['details'] as { issues: Array<{ path: string }> }).issues ?? []).map((i) => i.path);
  t.true(fields.includes('verify') && fields.includes('patchset.edits.0.new_text'));
  const ok = await tools.get('tug_snapshot')!.execute({});
  t.false('error' in ok);
  t.is(ok['exit_code'], 0);
  t.is((tools.get('tug_snapshot')!.parameters as { type: string }).type, 'object');
  await repo.cleanup();
});
