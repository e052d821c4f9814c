// change-signature of a function behind a decorator tug does not know: the decorator may call it its own way, so a
// change that old calls no longer fit (a reorder, a removal, a parameter without a default) is refused. Adding
// parameters with a default after the others keeps every old call binding as before, whatever the decorator passes,
// so it goes through with a warning that names the decorator (jsonschema's registering `@_checks_drafts`, toolz's
// `@curry` on `flip`, both seen refused in the sweep). The package's tests run on the result.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo, PYTEST_INI } from './helpers/repo.js';

const formats = `import functools

CHECKERS = {}


def checks(name):
    def register(func):
        CHECKERS[name] = func
        return func
    return register


def logged(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    return wrapper


@checks("date")
def is_date(instance, strict):
    return isinstance(instance, str) and (len(instance) == 10 or not strict)


@logged
def flip(func, a, b):
    return func(b, a)


def check(name, instance):
    return CHECKERS[name](instance, True)
`;
const tests = `from pkg.formats import check, flip, is_date


def test_formats():
    assert check("date", "2024-01-02")
    assert not is_date(3, False)
    assert flip(lambda x, y: x - y, 1, 5) == 4
`;
const files = { 'pkg/__init__.py': '', 'pkg/formats.py': formats, 'tests/test_formats.py': tests, ...PYTEST_INI };

async function change(at: string, params: unknown[]) {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'change-signature', '--at', at, '--params', JSON.stringify(params), '--verify', 'tests', '--json']);
  const after = run.json?.git?.branch ? await repo.git('show', `${run.json.git.branch}:pkg/formats.py`) : '';
  await repo.cleanup();
  return { run, after };
}

test('a parameter with a default added after the others goes through a registering decorator, with a warning', async (t) => {
  const { run, after } = await change('pkg/formats.py:21:5', [{ name: 'instance' }, { name: 'strict' }, { name: 'fmt', default: 'None' }]);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification?.status, 'passed', run.stdout);
  t.true(after.includes('def is_date(instance, strict, fmt=None):\n'), after);
  t.true(after.includes('    return CHECKERS[name](instance, True)'), after);
  const warning = run.json.warnings.find((w: { code: string }) => w.code === 'DecoratedSignature');
  t.regex(warning?.message ?? '', /decorated with @checks, .*every call made the old way still fits/, run.stdout);
});

test('the same through a wrapping decorator (flip behind @logged)', async (t) => {
  const { run, after } = await change('pkg/formats.py:26:5', [{ name: 'func' }, { name: 'a' }, { name: 'b' }, { name: 'label', default: '""' }]);
  t.is(run.exitCode, 0, run.stdout);
  t.true(after.includes('def flip(func, a, b, label=""):\n'), after);
});

test('a reorder behind a decorator is still refused: the decorator may call it with the old order', async (t) => {
  const { run, after } = await change('pkg/formats.py:21:5', [{ name: 'strict' }, { name: 'instance' }]);
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.is(run.json.error.details?.reason, 'decorated');
  t.is(after, '');
});

test('a parameter without a default (a value written at each call) behind a decorator is still refused', async (t) => {
  const { run } = await change('pkg/formats.py:26:5', [{ name: 'func' }, { name: 'a' }, { name: 'b' }, { name: 'label', value: '""' }]);
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.is(run.json.error.details?.reason, 'decorated');
});
