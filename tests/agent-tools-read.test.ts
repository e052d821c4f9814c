// read_file, list_files, list_directory, grep_file: success and every failure of the seeds' checklists, on real repositories.
import test from 'ava';
import { mkdir, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeRepo, repoState } from './helpers/repo.js';
import { call, isToolSuccess } from './helpers/tools.js';

const FILES = {
  'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n',
  'src/util.py': 'def helper():\n    return "TODO: helper"\n',
  'src/deep/mod.ts': 'export const todo = 1; // TODO later\n',
  'notes.txt': 'one\r\ntwo\r\nthree\r\n',
  'bom.txt': '\uFEFFfirst\nsecond\n',
  'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
  '.gitignore': 'build/\n*.log\n.env\n',
};

test('read_file: numbered lines, no error field, the snapshot id, and reads leave the repository as it was', async (t) => {
  const repo = await makeRepo(FILES);
  const before = await repoState(repo);
  const out = await call(repo, 'read_file', { path: 'app.py' });
  t.true(isToolSuccess(out), JSON.stringify(out));
  t.false('error' in out);
  t.is(out.exit_code, 0);
  t.is(out.content, '     1\tdef total(items):\n     2\t    return sum(items)\n     3\t\n     4\t\n     5\tprint(total([1, 2]))\n');
  t.is(out.total_lines, 5);
  t.is(out.snapshot_id, await repo.git('rev-parse', 'HEAD^{tree}'));
  t.is(await repoState(repo), before);
  await repo.cleanup();
});

test('read_file: a line range, line_end past the end reads to the end, raw lines without numbers', async (t) => {
  const repo = await makeRepo(FILES);
  const range = await call(repo, 'read_file', { path: 'app.py', line_start: 2, line_end: 3 });
  t.is(range.content, '     2\t    return sum(items)\n     3\t\n');
  t.deepEqual([range.line_start, range.line_end, range.truncated], [2, 3, false]);
  const past = await call(repo, 'read_file', { path: 'app.py', line_start: 4, line_end: 999 });
  t.is(past.line_end, 5);
  t.is(past.content, '     4\t\n     5\tprint(total([1, 2]))\n');
  const raw = await call(repo, 'read_file', { path: 'src/util.py', line_numbers: false });
  t.is(raw.content, 'def helper():\n    return "TODO: helper"\n');
  const beyond = await call(repo, 'read_file', { path: 'app.py', line_start: 50 });
  t.is(beyond.code, 'InvalidPosition');
  const backwards = await call(repo, 'read_file', { path: 'app.py', line_start: 3, line_end: 2 });
  t.is(backwards.code, 'InvalidArgument');
  await repo.cleanup();
});

test('read_file: CRLF is read as LF and reported; a BOM is reported, not shown', async (t) => {
  const repo = await makeRepo(FILES);
  const crlf = await call(repo, 'read_file', { path: 'notes.txt', line_numbers: false });
  t.is(crlf.content, 'one\ntwo\nthree\n');
  t.is(crlf.line_ending, 'crlf');
  const bom = await call(repo, 'read_file', { path: 'bom.txt', line_numbers: false });
  t.is(bom.content, 'first\nsecond\n');
  t.true(bom.bom);
  await repo.cleanup();
});

test('read_file: large files are cut at 100 KB with truncated and next_line_start', async (t) => {
  const line = `${'x'.repeat(99)}\n`;
  const repo = await makeRepo({ 'big.txt': line.repeat(3000) });
  const out = await call(repo, 'read_file', { path: 'big.txt', line_numbers: false });
  t.true(out.truncated);
  t.is(out.line_end, 1000);
  t.is(out.next_line_start, 1001);
  t.true(Buffer.byteLength(out.content) <= 100_000);
  const next = await call(repo, 'read_file', { path: 'big.txt', line_start: out.next_line_start, line_numbers: false });
  t.is(next.line_start, 1001);
  await repo.cleanup();
});

test('read_file failures: missing, ignored, binary, directory, absolute, .., symlink escape, wrong types', async (t) => {
  const repo = await makeRepo(FILES);
  await repo.write('.env', 'SECRET=1\n');
  await mkdir(path.join(repo.root, 'build'));
  await repo.write('build/out.txt', 'generated\n');
  await symlink(os.tmpdir(), path.join(repo.root, 'escape'));
  const cases: Array<[Record<string, unknown>, string, number]> = [
    [{ path: 'nope.py' }, 'FileNotFound', 3],
    [{ path: '.env' }, 'FileNotFound', 3],
    [{ path: 'build/out.txt' }, 'FileNotFound', 3],
    [{ path: 'logo.png' }, 'UnsupportedFile', 2],
    [{ path: 'src' }, 'InvalidArgument', 2],
    [{ path: '/etc/passwd' }, 'InvalidArgument', 2],
    [{ path: '../outside.txt' }, 'InvalidArgument', 2],
    [{ path: 'src/../../x' }, 'InvalidArgument', 2],
    [{ path: 'escape/anything' }, 'InvalidArgument', 2],
    [{ path: '.git/config' }, 'InvalidArgument', 2],
    [{ path: 12 }, 'InvalidArgument', 2],
    [{}, 'InvalidArgument', 2],
  ];
  for (const [args, code, exit] of cases) {
    const out = await call(repo, 'read_file', args);
    t.false(isToolSuccess(out), JSON.stringify(args));
    t.is(out.code, code, `${JSON.stringify(args)}: ${out.error}`);
    t.is(out.exit_code, exit);
    t.is(typeof out.error, 'string');
  }
  const binary = await call(repo, 'read_file', { path: 'logo.png' });
  t.regex(binary.error, /binary/);
  const missing = await call(repo, 'read_file', {});
  t.regex(missing.error, /path: required, expected string/);
  await repo.cleanup();
});

test('list_files: .gitignore honoured, globs, non-recursive, a subdirectory, sorted', async (t) => {
  const repo = await makeRepo(FILES);
  await repo.write('debug.log', 'ignored\n');
  await repo.write('untracked.py', 'x = 1\n');
  const all = await call(repo, 'list_files', {});
  const paths = all.files.map((f: { path: string }) => f.path);
  t.deepEqual(paths, [...paths].sort());
  t.true(paths.includes('untracked.py'), 'untracked, not ignored files are listed');
  t.false(paths.includes('debug.log'));
  t.is(all.count, paths.length);
  const py = await call(repo, 'list_files', { pattern: '*.py' });
  t.deepEqual(py.files.map((f: { path: string }) => f.path), ['app.py', 'src/util.py', 'untracked.py']);
  const shallow = await call(repo, 'list_files', { path: 'src', recursive: false });
  t.deepEqual(shallow.files.map((f: { path: string }) => f.path), ['src/util.py']);
  const deep = await call(repo, 'list_files', { path: 'src', pattern: 'deep/**/*.ts' });
  t.deepEqual(deep.files, [{ path: 'src/deep/mod.ts', size: 37 }]);
  const braces = await call(repo, 'list_files', { pattern: '*.{ts,txt}' });
  t.deepEqual(braces.files.map((f: { path: string }) => f.path), ['bom.txt', 'notes.txt', 'src/deep/mod.ts']);
  const capped = await call(repo, 'list_files', { max_results: 2 });
  t.is(capped.files.length, 2);
  t.true(capped.truncated);
  t.is((await call(repo, 'list_files', { path: 'missing' })).code, 'FileNotFound');
  t.is((await call(repo, 'list_files', { path: '../' })).code, 'InvalidArgument');
  await repo.cleanup();
});

test('list_directory: type, size, executable and mtime of the immediate children', async (t) => {
  const repo = await makeRepo(FILES);
  const out = await call(repo, 'list_directory', { path: '.' });
  t.true(isToolSuccess(out));
  const byName = new Map(out.entries.map((e: { name: string }) => [e.name, e]));
  t.like(byName.get('src'), { type: 'directory', path: 'src' });
  t.like(byName.get('app.py'), { type: 'file', size: FILES['app.py'].length, executable: false });
  t.regex((byName.get('app.py') as { mtime: string }).mtime, /^\d{4}-\d\d-\d\dT/);
  const sub = await call(repo, 'list_directory', { path: 'src' });
  t.deepEqual(sub.entries.map((e: { path: string }) => e.path), ['src/deep', 'src/util.py']);
  t.is((await call(repo, 'list_directory', { path: 'app.py' })).code, 'InvalidArgument');
  t.is((await call(repo, 'list_directory', { path: 'nope' })).code, 'FileNotFound');
  await repo.cleanup();
});

test('grep_file: regex matches with line, column and context; include glob; binary and ignored files skipped', async (t) => {
  const repo = await makeRepo(FILES);
  await repo.write('debug.log', 'TODO ignored\n');
  const out = await call(repo, 'grep_file', { pattern: 'TODO', context: 1 });
  t.true(isToolSuccess(out));
  t.deepEqual(
    out.matches.map((m: { path: string; line: number; column: number }) => [m.path, m.line, m.column]),
    [
      ['src/deep/mod.ts', 1, 27],
      ['src/util.py', 2, 13],
    ],
  );
  t.deepEqual(out.matches[1].before, ['def helper():']);
  t.deepEqual(out.matches[1].after, []);
  t.is(out.files_matched, 2);
  const py = await call(repo, 'grep_file', { pattern: 'todo', include: '*.py', case_insensitive: true });
  t.deepEqual(py.matches.map((m: { path: string }) => m.path), ['src/util.py']);
  const one = await call(repo, 'grep_file', { pattern: 'return \\w+', path: 'app.py' });
  t.is(one.matches.length, 1);
  t.is(one.matches[0].line, 2);
  const bad = await call(repo, 'grep_file', { pattern: '(' });
  t.is(bad.code, 'InvalidArgument');
  t.regex(bad.error, /regular expression/);
  t.is((await call(repo, 'grep_file', { pattern: 'x', path: '/etc' })).code, 'InvalidArgument');
  await repo.cleanup();
});

test('read tools can read a branch instead of the working tree (ref)', async (t) => {
  const repo = await makeRepo(FILES);
  await repo.git('checkout', '-q', '-b', 'other');
  await repo.write('app.py', 'changed = True\n');
  await repo.git('commit', '-qam', 'other');
  await repo.git('checkout', '-q', 'main');
  const out = await call(repo, 'read_file', { path: 'app.py', ref: 'other', line_numbers: false });
  t.is(out.content, 'changed = True\n');
  t.is(out.snapshot_id, await repo.git('rev-parse', 'other^{tree}'));
  const listing = await call(repo, 'list_directory', { ref: 'other' });
  t.true(listing.entries.every((e: { mtime: string | null }) => e.mtime === null));
  t.is((await call(repo, 'read_file', { path: 'app.py', ref: 'no-such-branch' })).code, 'InvalidArgument');
  await repo.cleanup();
});
