// Every parameter of every tool either changes what the call does (shown here by two calls that differ only in it, each
// on a fresh repository) or is documented as informational; required ones are refused when missing. No silent drops.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { executeTool, operations } from '../lib/index.js';
import { toolParameters } from '../lib/tools.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { releaseResources } from '../lib/ops/resources.js';

const FILES = {
  'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))  # total of the list\nlabel = "total"\n',
  'sub/b.py': 'y = 2\n',
  'notes.txt': 'Alpha\nbeta\nalpha\n',
};
const AT = { file: 'app.py', line: 1, column: 5, new_name: 'sum_all' };
const EDIT = { patchset: { edits: [{ file: 'app.py', line: 2, col: 12, old_text: 'sum', new_text: 'max' }] } };
const PY = (code: string) => ['{python}', '-c', code];
const FAIL = PY('raise SystemExit(3)');
const PASS = PY('pass');
const NOWHERE = '/nonexistent/tug-test/bin';
const ZERO = '0'.repeat(40);

type Args = Record<string, unknown>;
interface Effect {
  tool: string;
  a: Args;
  b: Args;
  /** Runs before each call, on its own fresh repository. */
  setup?: (repo: TestRepo) => Promise<void>;
  /** What is compared (default: the whole result). */
  probe?: (result: Args) => unknown;
}

const dirtyFile = async (repo: TestRepo) => repo.write('app.py', 'changed = 1\n');
const twoLogEntries = async (repo: TestRepo) => {
  await call(repo, 'run_command', { command: 'true' });
  await call(repo, 'run_command', { command: 'true' });
};
const appliedEdit = async (repo: TestRepo) => {
  const result = await call(repo, 'tug_apply_patchset', { ...EDIT, apply: true, verify: 'none' });
  TOKENS.set(repo.root, String(result['undo_token']));
};
// A sandbox is made only when something runs in it (`verify: 'none'` builds the tree without one): what clean removes.
const checkedEdit = async (repo: TestRepo) => {
  const result = await call(repo, 'tug_apply_patchset', { ...EDIT, apply: true, verify: 'syntax' });
  TOKENS.set(repo.root, String(result['undo_token']));
};
const mergedEdit = async (repo: TestRepo) => {
  const result = await call(repo, 'tug_apply_patchset', { ...EDIT, verify: 'none' });
  await repo.git('merge', '--ff-only', String((result['git'] as Args)['branch']));
  TOKENS.set(repo.root, String(result['undo_token']));
};
/** A use of `total` on a receiver of unknown type: an unsure occurrence of the rename at AT. */
const untypedUse = async (repo: TestRepo) => {
  await repo.write('c.py', 'def use(thing):\n    return thing.total()\n');
  await repo.git('add', 'c.py');
  await repo.git('commit', '-q', '-m', 'an untyped use');
};
/** A second file that uses `total`: include/exclude globs decide whether the analysis sees it. */
const secondUse = async (repo: TestRepo) => {
  await repo.write('c.py', 'from app import total\n\ntotal([3])\n');
  await repo.git('add', 'c.py');
  await repo.git('commit', '-q', '-m', 'a second use');
};
/** A program that answers `--version` as rust-analyzer does: doctor reports the one it is given. */
const FAKE_RA = path.join(os.tmpdir(), `tug-fake-ra-${process.pid}`);
const fakeRustAnalyzer = async () => {
  await writeFile(FAKE_RA, '#!/bin/sh\necho rust-analyzer 0.0.0-test\n', { mode: 0o755 });
};
test.after.always(() => rm(FAKE_RA, { force: true }));
const TOKENS = new Map<string, string>();
const token = { toString: () => '' };
/** A tug/ branch made in setup, on a base that has moved since: what tug_replay replays. */
const BRANCHES = new Map<string, string>();
const branchMade = { toString: () => '' };
const movedBranch = async (repo: TestRepo) => {
  const result = await call(repo, 'tug_apply_patchset', { ...EDIT, verify: 'none' });
  BRANCHES.set(repo.root, String((result['git'] as Args)['branch']));
  await repo.write('sub/b.py', 'y = 3\n');
  await repo.git('commit', '-q', '-am', 'the base moves');
};

/** A function where `a + b` is computed twice: extract-variable's `all` and `new_name` show there. */
const twoSums = async (repo: TestRepo) => {
  await repo.write('calc.py', 'def f(a, b):\n    x = a + b\n    return x * (a + b)\n');
  await repo.git('add', 'calc.py');
  await repo.git('commit', '-q', '-m', 'two sums');
};
/** A call evaluated before the extracted one in the same statement: extract-variable's strict refuses what it otherwise warns about. */
const callBefore = async (repo: TestRepo) => {
  await repo.write('calc.py', 'def f(xs, widths):\n    return max(widths.get(0, 0), len(xs))\n');
  await repo.git('add', 'calc.py');
  await repo.git('commit', '-q', '-m', 'a call before');
};
const LEN = { file: 'calc.py', line: 2, column: 34, end_line: 2, end_column: 41, new_name: 'n' };
/** A local whose value, inlined, would run after a call that came after it. */
const callBetween = async (repo: TestRepo) => {
  await repo.write('calc.py', 'def f(xs, log):\n    n = len(xs)\n    log.append(1)\n    return n\n');
  await repo.git('add', 'calc.py');
  await repo.git('commit', '-q', '-m', 'a call between');
};
const N = { file: 'calc.py', line: 2, column: 5 };
/** A call that passes an expression with an effect: removing that parameter needs force. */
const callWithExpression = async (repo: TestRepo) => {
  await repo.write('c.py', 'from app import total\n\ntotal(list(range(3)))\n');
  await repo.git('add', 'c.py');
  await repo.git('commit', '-q', '-m', 'a call with an expression');
};
const DROP = { file: 'app.py', line: 1, column: 5, new_params: [] };

/** Two files with unsorted imports: organize-imports' file and all show there. */
const unsorted = async (repo: TestRepo) => {
  await repo.write('calc.py', 'import sys\nimport os\n\nprint(os.sep, sys.argv)\n');
  await repo.write('other.py', 'import re\nimport json\n\nprint(re, json)\n');
  await repo.git('add', 'calc.py', 'other.py');
  await repo.git('commit', '-q', '-m', 'unsorted imports');
};
/** A helper nothing else in its module uses: move-symbol's keep_reexport shows there. */
const helper = async (repo: TestRepo) => {
  await repo.write('lib.py', 'def helper():\n    return 1\n');
  await repo.git('add', 'lib.py');
  await repo.git('commit', '-q', '-m', 'a helper');
};
const MOVE = { file: 'lib.py', line: 1, column: 5, destination: 'helpers' };
const called = async (repo: TestRepo) => {
  await repo.write('twice.py', 'def double(x):\n    return x * 2\n\n\nprint(double(3))\n');
  await repo.git('add', 'twice.py');
  await repo.git('commit', '-q', '-m', 'a function called once');
};
const DOUBLE = { file: 'twice.py', line: 1, column: 5 };
const SUM = { file: 'calc.py', line: 2, column: 9, end_line: 2, end_column: 14, new_name: 's' };
const diffOf = (r: Args) => (r['patch'] as Args | undefined)?.['unified_diff'] ?? r['code'];

/** Two plan steps: the first writes "gamma" into notes.txt, the second takes it out again. */
const noteEdit = (from: string, to: string) => ({ operation: 'apply_patchset', patchset: { edits: [{ file: 'notes.txt', line: 2, col: 1, old_text: from, new_text: to }] } });
const NOTE_STEPS = [noteEdit('beta', 'gamma'), noteEdit('gamma', 'delta')];
/** Fails while notes.txt holds "gamma": only a check after the first step sees it. */
const NO_GAMMA = PY("import sys; sys.exit('gamma' in open('notes.txt').read())");

/** Fields shared by the change tools, shown once on tug_apply_patchset (the same code path serves them all). */
const CHANGE: Record<string, Effect> = {
  snapshot: { tool: 'tug_apply_patchset', a: { ...EDIT, snapshot: ZERO }, b: EDIT },
  verify: { tool: 'tug_apply_patchset', a: { ...EDIT, verify: 'none' }, b: { ...EDIT, verify: 'syntax' } },
  apply: { tool: 'tug_apply_patchset', a: { ...EDIT, apply: true }, b: EDIT },
  commit: { tool: 'tug_apply_patchset', a: { ...EDIT, commit: true }, b: EDIT },
  keep_sandbox: { tool: 'tug_apply_patchset', a: { ...EDIT, verify: 'tests', test_command: FAIL, keep_sandbox: true }, b: { ...EDIT, verify: 'tests', test_command: FAIL }, probe: (r) => 'sandbox_path' in ((r['details'] as Args) ?? {}) },
  python: { tool: 'tug_apply_patchset', a: { ...EDIT, python: NOWHERE }, b: EDIT, probe: (r) => r['code'] ?? 'ok' },
  test_command: { tool: 'tug_apply_patchset', a: { ...EDIT, verify: 'tests', test_command: FAIL }, b: { ...EDIT, verify: 'tests', test_command: PASS }, probe: (r) => r['code'] ?? 'ok' },
  typecheck_command: { tool: 'tug_apply_patchset', a: { ...EDIT, verify: 'typecheck', test_command: PASS, typecheck_command: FAIL }, b: { ...EDIT, verify: 'typecheck', test_command: PASS, typecheck_command: PASS }, probe: (r) => r['code'] ?? 'ok' },
  timeout: { tool: 'tug_apply_patchset', a: { ...EDIT, verify: 'tests', test_command: PY('import time; time.sleep(3)'), timeout: 1 }, b: { ...EDIT, verify: 'tests', test_command: PY('import time; time.sleep(3)') }, probe: (r) => r['code'] ?? 'ok' },
  onto: { tool: 'tug_edit_file', a: { path: 'notes.txt', old_text: 'beta', new_text: 'gamma', onto: 'tug/edit/task' }, b: { path: 'notes.txt', old_text: 'beta', new_text: 'gamma' }, probe: (r) => (r['git'] as Args)['branch'] },
  workspace_path: { tool: 'read_file', a: { path: 'b.py', workspace_path: 'sub' }, b: { path: 'b.py' }, probe: (r) => r['code'] ?? 'ok' },
  no_wait: { tool: 'tug_apply_patchset', a: { ...EDIT, no_wait: true }, b: EDIT, setup: holdLock, probe: (r) => r['code'] ?? 'ok' },
  wait_s: { tool: 'tug_apply_patchset', a: { ...EDIT, wait_s: 0.2 }, b: EDIT, setup: holdLock, probe: (r) => r['code'] ?? 'ok' },
};

/** Tool-specific parameters. */
const EFFECTS: Record<string, Effect> = {
  'tug_analyze_impact.rename_strings': { tool: 'tug_analyze_impact', a: { ...AT, rename_strings: true }, b: AT },
  'tug_analyze_impact.rename_comments': { tool: 'tug_analyze_impact', a: { ...AT, rename_comments: true }, b: AT },
  'tug_analyze_impact.python': { tool: 'tug_analyze_impact', a: { ...AT, python: NOWHERE }, b: AT, probe: (r) => r['code'] ?? 'ok' },
  'tug_analyze_impact.new_name': { tool: 'tug_analyze_impact', a: { ...AT, new_name: 'class' }, b: AT, probe: (r) => r['code'] ?? 'ok' },
  'tug_rename_symbol.rename_strings': { tool: 'tug_rename_symbol', a: { ...AT, rename_strings: true }, b: AT, probe: (r) => (r['summary'] as Args)['edits_count'] },
  'tug_analyze_impact.include_unsure': { tool: 'tug_analyze_impact', a: { ...AT, include_unsure: true }, b: AT, setup: untypedUse },
  'tug_analyze_impact.keep_alias': { tool: 'tug_analyze_impact', a: { ...AT, keep_alias: true }, b: AT },
  'tug_rename_symbol.include_unsure': { tool: 'tug_rename_symbol', a: { ...AT, include_unsure: true }, b: AT, setup: untypedUse, probe: (r) => (r['summary'] as Args)['edits_count'] },
  'tug_rename_symbol.keep_alias': { tool: 'tug_rename_symbol', a: { ...AT, keep_alias: true }, b: AT, probe: (r) => (r['summary'] as Args)['edits_count'] },
  'tug_rename_symbol.rename_comments': { tool: 'tug_rename_symbol', a: { ...AT, rename_comments: true }, b: AT, probe: (r) => (r['summary'] as Args)['edits_count'] },
  'tug_analyze_impact.include': { tool: 'tug_analyze_impact', a: { ...AT, include: ['app.py'] }, b: AT, setup: secondUse },
  'tug_analyze_impact.exclude': { tool: 'tug_analyze_impact', a: { ...AT, exclude: ['c.py'] }, b: AT, setup: secondUse },
  'tug_analyze_impact.line': { tool: 'tug_analyze_impact', a: { ...AT, line: 2, column: 12 }, b: AT, probe: (r) => r['code'] ?? (r['symbol'] as Args)['name'] },
  'tug_analyze_impact.column': { tool: 'tug_analyze_impact', a: { ...AT, column: 1 }, b: AT, probe: (r) => r['code'] ?? 'ok' },
  'tug_analyze_impact.all': { tool: 'tug_analyze_impact', a: { operation: 'extract_variable', ...SUM, all: true }, b: { operation: 'extract_variable', ...SUM }, setup: twoSums, probe: diffOf },
  'tug_analyze_impact.strict': { tool: 'tug_analyze_impact', a: { operation: 'extract_variable', ...LEN, strict: true }, b: { operation: 'extract_variable', ...LEN }, setup: callBefore, probe: (r) => r['code'] ?? 'ok' },
  'tug_analyze_impact.end_column': { tool: 'tug_analyze_impact', a: { operation: 'extract_variable', ...SUM, end_column: 12 }, b: { operation: 'extract_variable', ...SUM }, setup: twoSums, probe: diffOf },
  'tug_analyze_impact.end_line': { tool: 'tug_analyze_impact', a: { operation: 'extract_variable', ...SUM, end_line: 3 }, b: { operation: 'extract_variable', ...SUM }, setup: twoSums, probe: diffOf },
  'tug_organize_imports.all': { tool: 'tug_organize_imports', a: { all: true }, b: { file: 'calc.py' }, setup: unsorted, probe: diffOf },
  'tug_organize_imports.file': { tool: 'tug_organize_imports', a: { file: 'calc.py' }, b: { file: 'other.py' }, setup: unsorted, probe: diffOf },
  'tug_organize_imports.files': { tool: 'tug_organize_imports', a: { files: ['calc.py', 'other.py'] }, b: { file: 'calc.py' }, setup: unsorted, probe: diffOf },
  'tug_analyze_impact.files': { tool: 'tug_analyze_impact', a: { operation: 'organize_imports', files: ['calc.py', 'other.py'] }, b: { operation: 'organize_imports', file: 'calc.py' }, setup: unsorted, probe: diffOf },
  'tug_extract_function.new_name': { tool: 'tug_extract_function', a: { file: 'calc.py', line: 2, column: 5, end_line: 2, end_column: 14, new_name: 'g' }, b: { file: 'calc.py', line: 2, column: 5, end_line: 2, end_column: 14, new_name: 'h' }, setup: twoSums, probe: diffOf },
  'tug_analyze_impact.force': { tool: 'tug_analyze_impact', a: { operation: 'change_signature', ...DROP, force: true }, b: { operation: 'change_signature', ...DROP }, setup: callWithExpression, probe: diffOf },
  'tug_change_signature.force': { tool: 'tug_change_signature', a: { ...DROP, force: true }, b: DROP, setup: callWithExpression, probe: diffOf },
  'tug_analyze_impact.new_params': { tool: 'tug_analyze_impact', a: { operation: 'change_signature', file: 'app.py', line: 1, column: 5, new_params: [{ name: 'items' }, { name: 'start', default: '0' }] }, b: { operation: 'change_signature', file: 'app.py', line: 1, column: 5, new_params: [{ name: 'values', from: 'items' }] }, probe: diffOf },
  'tug_inline.strict': { tool: 'tug_inline', a: { ...N, strict: true }, b: N, setup: callBetween, probe: (r) => r['code'] ?? 'ok' },
  'tug_inline.keep_definition': { tool: 'tug_inline', a: { ...DOUBLE, keep_definition: true }, b: DOUBLE, setup: called, probe: diffOf },
  'tug_analyze_impact.keep_definition': { tool: 'tug_analyze_impact', a: { operation: 'inline', ...DOUBLE, keep_definition: true }, b: { operation: 'inline', ...DOUBLE }, setup: called, probe: diffOf },
  'tug_move_symbol.keep_reexport': { tool: 'tug_move_symbol', a: { ...MOVE, keep_reexport: true }, b: MOVE, setup: helper, probe: diffOf },
  'tug_analyze_impact.keep_reexport': { tool: 'tug_analyze_impact', a: { operation: 'move_symbol', ...MOVE, keep_reexport: true }, b: { operation: 'move_symbol', ...MOVE }, setup: helper, probe: diffOf },
  'tug_analyze_impact.destination': { tool: 'tug_analyze_impact', a: { operation: 'move_symbol', ...MOVE, destination: 'tools' }, b: { operation: 'move_symbol', ...MOVE }, setup: helper, probe: diffOf },
  'tug_extract_variable.strict': { tool: 'tug_extract_variable', a: { ...LEN, strict: true }, b: LEN, setup: callBefore, probe: (r) => r['code'] ?? 'ok' },
  'tug_extract_variable.all': { tool: 'tug_extract_variable', a: { ...SUM, all: true }, b: SUM, setup: twoSums, probe: diffOf },
  'tug_extract_variable.new_name': { tool: 'tug_extract_variable', a: { ...SUM, new_name: 't' }, b: SUM, setup: twoSums, probe: diffOf },
  'tug_analyze_impact.safety': { tool: 'tug_analyze_impact', a: { ...AT, safety: 'aggressive' }, b: AT },
  'tug_rename_symbol.include': { tool: 'tug_rename_symbol', a: { ...AT, include: ['app.py'] }, b: AT, setup: secondUse, probe: (r) => (r['summary'] as Args)?.['edits_count'] ?? r['code'] },
  'tug_rename_symbol.exclude': { tool: 'tug_rename_symbol', a: { ...AT, exclude: ['c.py'] }, b: AT, setup: secondUse, probe: (r) => (r['summary'] as Args)?.['edits_count'] ?? r['code'] },
  'tug_rename_symbol.safety': { tool: 'tug_rename_symbol', a: { ...AT, safety: 'aggressive' }, b: AT, probe: (r) => (r['summary'] as Args)['edits_count'] },
  'tug_doctor.rust_analyzer': { tool: 'tug_doctor', a: { rust_analyzer: FAKE_RA }, b: {}, setup: fakeRustAnalyzer, probe: (r) => (r['checks'] as Args[]).find((c) => c['name'] === 'rust-analyzer') },
  'tug_verify.mode': { tool: 'tug_verify', a: { mode: 'tests', test_command: FAIL }, b: { mode: 'syntax', test_command: FAIL }, probe: (r) => r['code'] ?? 'ok' },
  'tug_verify.snapshot': { tool: 'tug_verify', a: { snapshot: ZERO }, b: {}, probe: (r) => r['code'] ?? 'ok' },
  'tug_verify.python': { tool: 'tug_verify', a: { python: NOWHERE }, b: {}, probe: (r) => r['code'] ?? 'ok' },
  'tug_verify.test_command': { tool: 'tug_verify', a: { mode: 'tests', test_command: FAIL }, b: { mode: 'tests', test_command: PASS }, probe: (r) => r['code'] ?? 'ok' },
  'tug_verify.typecheck_command': { tool: 'tug_verify', a: { mode: 'typecheck', test_command: PASS, typecheck_command: FAIL }, b: { mode: 'typecheck', test_command: PASS, typecheck_command: PASS }, probe: (r) => r['code'] ?? 'ok' },
  'tug_verify.timeout': { tool: 'tug_verify', a: { mode: 'tests', test_command: PY('import time; time.sleep(3)'), timeout: 1 }, b: { mode: 'tests', test_command: PY('import time; time.sleep(3)') }, probe: (r) => r['code'] ?? 'ok' },
  'tug_undo.force': { tool: 'tug_undo', a: { token, force: true }, b: { token }, setup: async (repo) => { await appliedEdit(repo); await repo.write('app.py', 'mine = 1\n'); }, probe: (r) => r['code'] ?? 'ok' },
  'tug_undo.revert': { tool: 'tug_undo', a: { token, revert: true }, b: { token }, setup: mergedEdit, probe: (r) => 'reverted' in r },
  'tug_clean.workers': { tool: 'tug_clean', a: { workers: true }, b: {}, setup: checkedEdit, probe: (r) => r['removed'] },
  'tug_clean.cache': { tool: 'tug_clean', a: { cache: true }, b: {}, setup: checkedEdit, probe: (r) => r['removed'] },
  'tug_clean.sandboxes': { tool: 'tug_clean', a: { sandboxes: true }, b: {}, setup: checkedEdit, probe: (r) => r['removed'] },
  'tug_clean.undo': { tool: 'tug_clean', a: { undo: true }, b: {}, setup: checkedEdit, probe: (r) => r['removed'] },
  'tug_toolchain.python': { tool: 'tug_toolchain', a: { language: 'python', action: 'info', python: NOWHERE }, b: { language: 'python', action: 'info' } },
  'tug_toolchain.rust_analyzer': { tool: 'tug_toolchain', a: { language: 'rust', action: 'info', rust_analyzer: NOWHERE }, b: { language: 'rust', action: 'info' } },
  'read_file.line_start': { tool: 'read_file', a: { path: 'notes.txt', line_start: 2 }, b: { path: 'notes.txt' } },
  'read_file.line_end': { tool: 'read_file', a: { path: 'notes.txt', line_end: 1 }, b: { path: 'notes.txt' } },
  'read_file.line_numbers': { tool: 'read_file', a: { path: 'notes.txt', line_numbers: false }, b: { path: 'notes.txt' } },
  'read_file.ref': { tool: 'read_file', a: { path: 'app.py', ref: 'HEAD' }, b: { path: 'app.py' }, setup: dirtyFile },
  'list_files.path': { tool: 'list_files', a: { path: 'sub' }, b: {} },
  'list_files.pattern': { tool: 'list_files', a: { pattern: '*.txt' }, b: {} },
  'list_files.recursive': { tool: 'list_files', a: { recursive: false }, b: {} },
  'list_files.max_results': { tool: 'list_files', a: { max_results: 1 }, b: {} },
  'list_files.ref': { tool: 'list_files', a: { ref: 'HEAD' }, b: {}, setup: (repo) => repo.write('new.txt', 'x\n') },
  'list_directory.path': { tool: 'list_directory', a: { path: 'sub' }, b: {} },
  'list_directory.ref': { tool: 'list_directory', a: { ref: 'HEAD' }, b: {}, setup: (repo) => repo.write('new.txt', 'x\n') },
  'grep_file.path': { tool: 'grep_file', a: { pattern: 'y|total', path: 'sub' }, b: { pattern: 'y|total' } },
  'grep_file.include': { tool: 'grep_file', a: { pattern: 'a', include: '*.txt' }, b: { pattern: 'a' } },
  'grep_file.context': { tool: 'grep_file', a: { pattern: 'beta', context: 0 }, b: { pattern: 'beta' } },
  'grep_file.case_insensitive': { tool: 'grep_file', a: { pattern: 'alpha', case_insensitive: true }, b: { pattern: 'alpha' } },
  'grep_file.max_matches': { tool: 'grep_file', a: { pattern: 'a', max_matches: 1 }, b: { pattern: 'a' } },
  'grep_file.ref': { tool: 'grep_file', a: { pattern: 'changed', ref: 'HEAD' }, b: { pattern: 'changed' }, setup: dirtyFile },
  'edit_file.display_description': { tool: 'edit_file', a: { path: 'notes.txt', old_text: 'beta', new_text: 'gamma', display_description: 'say gamma' }, b: { path: 'notes.txt', old_text: 'beta', new_text: 'gamma' }, probe: (r) => (r['git'] as Args)['commit'] },
  'write_file.overwrite': { tool: 'write_file', a: { path: 'notes.txt', content: 'new\n', overwrite: false }, b: { path: 'notes.txt', content: 'new\n' }, probe: (r) => r['code'] ?? 'ok' },
  'delete_file.confirm': { tool: 'delete_file', a: { path: 'notes.txt', confirm: false }, b: { path: 'notes.txt' }, probe: (r) => r['code'] ?? 'ok' },
  'apply_patch.message': { tool: 'apply_patch', a: { patch: PATCH(), message: 'use max' }, b: { patch: PATCH() }, probe: (r) => (r['git'] as Args)['branch'] },
  'run_command.cwd': { tool: 'run_command', a: { command: 'ls', cwd: 'sub' }, b: { command: 'ls' }, probe: (r) => r['stdout'] },
  'run_command.timeout': { tool: 'run_command', a: { command: 'sleep 3', timeout: 1 }, b: { command: 'sleep 3' }, probe: (r) => r['timed_out'] },
  'run_command.ref': { tool: 'run_command', a: { command: 'cat app.py', ref: 'HEAD' }, b: { command: 'cat app.py' }, setup: dirtyFile, probe: (r) => r['stdout'] },
  'tug_replay.replace': { tool: 'tug_replay', a: { branch: branchMade, replace: true }, b: { branch: branchMade }, setup: movedBranch, probe: (r) => r['code'] ?? [(r['replay'] as Args)['replaced'], (r['git'] as Args)['branch']] },
  'tug_check_merge.into': { tool: 'tug_check_merge', a: { branch: branchMade, into: 'HEAD~1' }, b: { branch: branchMade }, setup: movedBranch, probe: (r) => r['code'] ?? r['into'] },
  'tug_run_plan.verify_each': { tool: 'tug_run_plan', a: { steps: NOTE_STEPS, verify: 'tests', test_command: NO_GAMMA, verify_each: true }, b: { steps: NOTE_STEPS, verify: 'tests', test_command: NO_GAMMA }, probe: (r) => r['code'] ?? 'ok' },
  'tug_run_plan.squash': { tool: 'tug_run_plan', a: { steps: NOTE_STEPS, verify: 'none', squash: true }, b: { steps: NOTE_STEPS, verify: 'none' }, probe: (r) => r['code'] ?? (r['plan'] as Args)['squashed'] },
  'tug_analyze_impact.steps': { tool: 'tug_analyze_impact', a: { steps: NOTE_STEPS }, b: { steps: NOTE_STEPS.slice(0, 1) }, probe: diffOf },
  'tug_log.n': { tool: 'tug_log', a: { n: 1 }, b: {}, setup: twoLogEntries, probe: (r) => (r['entries'] as unknown[]).length },
};

/**
 * Tools for Rust files only: their parameters need a Cargo crate and rust-analyzer, so tests/rust-assists.test.ts shows
 * them (each one named there), not this Python repository.
 */
const RUST_ONLY = new Set(['tug_extract_variable', 'tug_extract_function', 'tug_inline', 'tug_organize_imports', 'tug_assists', 'tug_assist']);
const RUST_ASSISTS_TEST = ['rust-assists', 'rust-assist-catalog'].map((f) => readFileSync(new URL(`../../tests/${f}.test.ts`, import.meta.url), 'utf8')).join('\n');

/** Accepted but not behaviour-changing on their own, and described as such in the schema. */
const INFORMATIONAL: Record<string, RegExp> = {
  'tug_analyze_impact.operation': /refactor to analyse/,
  'tug_analyze_impact.rust_analyzer': /Rust targets/,
  'tug_rename_symbol.rust_analyzer': /Rust targets/,
};

function PATCH(): string {
  return '--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n Alpha\n-beta\n+gamma\n alpha\n';
}

/** Calls still running in the background for a repository; awaited before it is removed. */
const BACKGROUND = new Map<string, Promise<unknown>>();

async function holdLock(repo: TestRepo): Promise<void> {
  // A change that waits on a slow test holds the session lock while the measured call runs: no_wait answers
  // SessionLocked at once, the default waits for it and succeeds.
  let done = false;
  const holder = executeTool('tug_apply_patchset', { ...EDIT, verify: 'tests', test_command: PY('import time; time.sleep(4)') }, { workspace: repo.root });
  BACKGROUND.set(repo.root, holder.finally(() => (done = true)));
  // The measured call starts once the holder has the lock (seen in the session), however long a busy machine takes.
  for (;;) {
    const status = await executeTool('tug_session_status', {}, { workspace: repo.root });
    if ((status['lock'] as Args | undefined)?.['held']) return;
    if (done) throw new Error(`the change meant to hold the lock ended first: ${JSON.stringify(await holder)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function call(repo: TestRepo, tool: string, args: Args): Promise<Args> {
  const resolved = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, v === token ? TOKENS.get(repo.root) : v === branchMade ? BRANCHES.get(repo.root) : v]));
  return executeTool(tool, resolved, { workspace: repo.root });
}

async function outcome(effect: Effect, args: Args): Promise<unknown> {
  const repo = await makeRepo(FILES);
  try {
    await effect.setup?.(repo);
    const result = await call(repo, effect.tool, args);
    const probe = effect.probe ?? ((r: Args) => r);
    return JSON.stringify(probe(result));
  } finally {
    await BACKGROUND.get(repo.root);
    await releaseResources(); // warm Python workers write into the session dir
    await repo.cleanup();
  }
}

function parametersOf(tool: string): { properties: Record<string, { description?: string }>; required: string[] } {
  const operation = operations.find((op) => op.tool === tool || op.agentName === tool)!;
  const schema = toolParameters(operation) as { properties: Record<string, { description?: string }>; required?: string[] };
  return { properties: schema.properties, required: schema.required ?? [] };
}

test('every parameter of every tool is required, shown to change the result, or documented as informational', (t) => {
  for (const operation of operations) {
    const name = operation.agentName ?? operation.tool;
    const { properties, required } = parametersOf(name);
    for (const [param, schema] of Object.entries(properties)) {
      const key = `${name}.${param}`;
      const informational = INFORMATIONAL[key];
      if (informational) t.regex(schema.description ?? '', informational, key);
      // Fields only the Rust assists take so far (directly, or through analyze-impact) are shown in rust-assists.test.ts.
      const rust = (RUST_ONLY.has(name) || name === 'tug_analyze_impact') && RUST_ASSISTS_TEST.includes(param);
      t.true(required.includes(param) || key in EFFECTS || param in CHANGE || informational !== undefined || rust, `${key} has no demonstrated effect`);
    }
  }
});

test('a missing required parameter is refused, naming it', async (t) => {
  const repo = await makeRepo(FILES);
  for (const operation of operations) {
    const name = operation.agentName ?? operation.tool;
    for (const param of parametersOf(name).required) {
      const result = await executeTool(name, {}, { workspace: repo.root });
      t.is(result['code'], 'InvalidArgument', name);
      const issues = (result['details'] as { issues: Array<{ path: string }> }).issues.map((i) => i.path);
      t.true(issues.includes(param), `${name} names ${param}: ${issues.join(', ')}`);
    }
  }
  await repo.cleanup();
});

for (const [key, effect] of [...Object.entries(CHANGE).map(([k, e]) => [`shared.${k}`, e] as const), ...Object.entries(EFFECTS)]) {
  test.serial(`${key} changes the result`, async (t) => {
    const a = await outcome(effect, effect.a);
    const b = await outcome(effect, effect.b);
    t.not(a, b, `${key}: ${a}`);
  });
}
