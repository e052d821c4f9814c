// extract-function on code shaped like real projects': a local the range updates comes in as a parameter, a name both
// a try and its except assign is a result, and the enclosing function's annotations go with the names they type. Each
// result runs the package's own tests in the sandbox.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

async function extract(files: Record<string, string>, range: string, name: string) {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'extract-function', '--range', range, '--name', name, '--verify', 'tests', '--json']);
  const show = async (file: string) => (run.json?.git?.branch ? `${await repo.git('show', `${run.json.git.branch}:${file}`)}\n` : '');
  return { repo, run, show };
}

// Found on a real project: `s += …`, `s.add(…)` then `s |= …` returned s without passing it in (UnboundLocalError).
const words = [
  'def vocabulary(lines):',
  '    seen = set()',
  '    count = 0',
  '    for line in lines:',
  '        seen.add(line.split()[0])',
  '    count += len(lines)',
  '    seen |= {"<eos>"}',
  '    return sorted(seen), count',
  '',
].join('\n');
const wordsTest = ['from words import vocabulary', '', '', 'def test_vocabulary():', '    assert vocabulary(["a b", "c d", "a x"]) == (["<eos>", "a", "c"], 3)', ''].join('\n');

test('a local the range updates in place (+=, .add, |=) is passed in as well as returned', async (t) => {
  const { repo, run, show } = await extract({ 'words.py': words, 'test_words.py': wordsTest }, 'words.py:4:5-7:22', 'collect');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed', JSON.stringify(run.json.verification));
  const text = await show('words.py');
  t.true(text.includes('    count, seen = collect(lines, seen, count)\n'), text);
  t.true(text.includes('def collect(lines, seen, count):\n'), text);
  await repo.cleanup();
});

// Found on a real project: refused as "assigned only on some paths" though both the try and the except assign it.
const config = [
  'import json',
  '',
  '',
  'def load(path):',
  '    try:',
  '        with open(path) as handle:',
  '            data = json.load(handle)',
  '    except FileNotFoundError:',
  '        data = {}',
  '    return data.get("name", "anonymous")',
  '',
].join('\n');
const configTest = ['from config import load', '', '', 'def test_missing(tmp_path):', '    assert load(str(tmp_path / "none.json")) == "anonymous"', ''].join('\n');

test('a name both a try and its except assign is a result of the extracted function', async (t) => {
  const { repo, run, show } = await extract({ 'config.py': config, 'test_config.py': configTest }, 'config.py:5:5-9:18', 'read_data');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed', JSON.stringify(run.json.verification));
  t.true((await show('config.py')).includes('    data = read_data(path)\n'));
  await repo.cleanup();
});

test('a name only the try assigns (the except passes) is still refused', async (t) => {
  const partial = config.replace('        data = {}', '        pass');
  const { repo, run } = await extract({ 'config.py': partial }, 'config.py:5:5-9:13', 'read_data');
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /data is assigned only on some paths/);
  await repo.cleanup();
});

const report = [
  'def render(rows: list[dict[str, str]], width: int = 80) -> str:',
  '    total: int = 0',
  '    lines = []',
  '    for row in rows:',
  '        total += len(row)',
  '        lines.append(str(row)[:width])',
  '    return "\\n".join(lines) + str(total)',
  '',
].join('\n');
const reportTest = ['from report import render', '', '', 'def test_render():', '    assert render([{"a": "b"}], 6) == "{\'a\': 1"', ''].join('\n');

test('the new function keeps the annotations the enclosing function gives its parameters, locals and return', async (t) => {
  const loop = await extract({ 'pyproject.toml': '[project]\nname = "r"\nversion = "0"\nrequires-python = ">=3.9"\n', 'report.py': report, 'test_report.py': reportTest }, 'report.py:4:5-6:39', 'add_rows');
  t.is(loop.run.exitCode, 0, loop.run.stdout);
  t.is(loop.run.json.verification.status, 'passed', JSON.stringify(loop.run.json.verification));
  t.true((await loop.show('report.py')).includes('def add_rows(rows: list[dict[str, str]], total: int, lines, width: int) -> int:\n'));
  await loop.repo.cleanup();
  const tail = await extract({ 'report.py': report, 'test_report.py': reportTest }, 'report.py:7:5-7:41', 'finish');
  t.is(tail.run.exitCode, 0, tail.run.stdout);
  t.true((await tail.show('report.py')).includes('def finish(lines, total: int) -> str:\n'));
  await tail.repo.cleanup();
});
