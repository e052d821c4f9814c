// extract-variable and extract-function on TypeScript through the real CLI and the language service's Extract Symbol: named by the caller, indented like the file, verified and committed; bad ranges and taken names refused.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { TS_ENV as ENV, tsFixture } from './helpers/typescript.js';

test('extract-variable puts a const beside its use; extract-function moves statements to a module function', async (t) => {
  const repo = await tsFixture('shapes');
  const variable = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/geometry.ts:9:21-9:30', '--name', 'dx'], { env: ENV });
  t.is(variable.exitCode, 0, variable.stdout);
  t.is(variable.json.git.branch.startsWith('tug/'), true);
  t.regex(await repo.git('show', `${variable.json.git.commit}:src/geometry.ts`), /\n {2}const dx = a\.x - b\.x;\n {2}return Math\.hypot\(dx, a\.y - b\.y\);/);
  const fn = await tug(repo.root, ['run', 'extract-function', '--range', 'src/labels.ts:4:3-5:44', '--name', 'measure'], { env: ENV });
  t.is(fn.exitCode, 0, fn.stdout);
  const labels = await repo.git('show', `${fn.json.git.commit}:src/labels.ts`);
  t.regex(labels, /const \{ label, offset \} = measure\(point\);/);
  t.regex(labels, /\nfunction measure\(point: Point\) \{\n {2}const offset = point\.x - ORIGIN\.x;/);
  await repo.cleanup();
});

test('a range that is no expression is InvalidSelection; a name the file uses is NameConflict', async (t) => {
  const repo = await tsFixture('shapes');
  const partial = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/geometry.ts:9:23-9:28', '--name', 'dx'], { env: ENV });
  t.is(partial.json.error.code, 'InvalidSelection', partial.stdout);
  const taken = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/geometry.ts:9:21-9:30', '--name', 'ORIGIN'], { env: ENV });
  t.is(taken.json.error.code, 'NameConflict', taken.stdout);
  await repo.write('src/units.ts', "// years: the longest unit\nexport function label(n: number, unit: 'years' | 'days') {\n  return n * 2 + unit;\n}\n");
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'units');
  // The word in a string or a comment binds nothing (found on vercel/ms, whose unit names are strings).
  const wordOnly = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/units.ts:3:10-3:15', '--name', 'years', '--verify', 'none'], { env: ENV });
  t.is(wordOnly.exitCode, 0, wordOnly.stdout);
  t.regex(await repo.git('show', `${wordOnly.json.git.commit}:src/units.ts`), /const years = n \* 2;\n {2}return years \+ unit;/);
  await repo.git('branch', '-D', wordOnly.json.git.branch);
  await repo.write('src/batch.ts', 'export const limits = { all: 3 };\nexport function every(list: Promise<number>[]) {\n  return Promise.all(list).then((xs) => xs.length <= limits.all);\n}\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'batch');
  // A member's name binds nothing in scope either (found on supermacro/neverthrow: `Promise.all(list)` extracted as `all`).
  const member = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/batch.ts:3:10-3:27', '--name', 'all', '--verify', 'none'], { env: ENV });
  t.is(member.exitCode, 0, member.stdout);
  t.regex(await repo.git('show', `${member.json.git.commit}:src/batch.ts`), /const all = Promise\.all\(list\);\n {2}return all\.then\(\(xs\) => xs\.length <= limits\.all\);/);
  await repo.git('branch', '-D', member.json.git.branch);
  const bound = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/batch.ts:3:10-3:27', '--name', 'limits', '--verify', 'none'], { env: ENV });
  t.is(bound.json.error.code, 'NameConflict', bound.stdout);
  await repo.write('src/arrow.ts', 'export const count = (list: Promise<number>[]): Promise<number> =>\n  Promise.all(list).then((xs) => xs.length);\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'arrow');
  // The service's "enclosing scope" of an arrow's expression body is the module, where `list` does not exist (neverthrow).
  const outside = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/arrow.ts:2:3-2:20', '--name', 'pending', '--verify', 'none'], { env: ENV });
  t.is(outside.json.error?.code, 'UnsafeRefactor', outside.stdout);
  await repo.write('src/guard.ts', 'export function when(d: Date | null) {\n  if (d) return d.getTime() > 0;\n  return false;\n}\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'guard');
  // The service would hoist `d.getTime() > 0` above the if, calling getTime on null.
  const hoisted = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/guard.ts:2:17-2:32', '--name', 'positive'], { env: ENV });
  t.is(hoisted.json.error.code, 'UnsafeRefactor', hoisted.stdout);
  t.is(await repo.git('branch', '--list', 'tug/*'), '');
  await repo.cleanup();
});

test('the extracted lines are indented like the file, whose block comment lines (one space) do not count', async (t) => {
  const repo = await tsFixture('shapes');
  await repo.write('src/area.ts', ['/**', ' * Areas.', ' */', 'export function area(w: number, h: number) {', '  if (w > 0) {', '    return w * h + 1', '  }', '  return 0', '}', ''].join('\n'));
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'area');
  const run = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/area.ts:6:12-6:17', '--name', 'size', '--verify', 'none'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.regex(await repo.git('show', `${run.json.git.commit}:src/area.ts`), /\n {2}if \(w > 0\) \{\n {4}const size = w \* h\n {4}return size \+ 1\n {2}\}/);
  await repo.cleanup();
});

test('the caller\'s name replaces only the new const: the property it was named after, another function\'s same-named parameter and comments stay', async (t) => {
  const repo = await tsFixture('shapes');
  const cmd = [
    'export class Cmd {',
    '  args: string[] = [];',
    '  count(): number {',
    '    return this.args.length + 1;',
    '  }',
    '  reset(): void {',
    '    this.args = [];',
    '  }',
    '}',
    '',
    '// args are the words after the name',
    'export function join(args: string[]): string {',
    "  return args.join(' ');",
    '}',
    '',
  ];
  await repo.write('src/cmd.ts', cmd.join('\n'));
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'cmd');
  // The service names the const after the property (`args`), a word the file uses elsewhere for other things.
  const run = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/cmd.ts:4:12-4:21', '--name', 'words', '--verify', 'none'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  const expected = [...cmd];
  expected.splice(3, 1, '    const words = this.args;', '    return words.length + 1;');
  t.is(await repo.git('show', `${run.json.git.commit}:src/cmd.ts`), expected.join('\n').trimEnd());
  // The left of an assignment is a place, not a value: refused before the service is asked.
  const written = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/cmd.ts:7:5-7:14', '--name', 'words', '--verify', 'none'], { env: ENV });
  t.is(written.json.error?.code, 'InvalidSelection', written.stdout);
  t.is(written.json.error.details.reason, 'written to');
  t.not(written.exitCode, 0);
  await repo.cleanup();
});

test('extract-function of statements that use `this` becomes a method of the class, named as asked at its declaration and call', async (t) => {
  const repo = await tsFixture('shapes');
  await repo.write('src/counter.ts', ['export class Counter {', '  count = 0;', '  bump(by: number): number {', '    this.count += by;', '    return this.count;', '  }', '}', ''].join('\n'));
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'counter');
  const run = await tug(repo.root, ['run', 'extract-function', '--range', 'src/counter.ts:4:5-4:22', '--name', 'step', '--verify', 'none'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  const text = await repo.git('show', `${run.json.git.commit}:src/counter.ts`);
  t.regex(text, /\n {4}this\.step\(by\);\n/);
  t.regex(text, /\n {2}(private )?step\(by: number\)/);
  t.false(/newMethod/.test(text));
  await repo.cleanup();
});
