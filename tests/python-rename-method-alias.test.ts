// A parameter rename follows keywords that reach the function through a method alias in the class body
// (`_irange_key = irange_key`) or a bound method stored on the instance (`self.irange_key = _list.irange_key`), and lists
// them as unsure where the stored method's owner cannot be typed (`self.irange_key = source.irange_key`). Both were missed
// without a word on sortedcontainers (issue 28 §2).
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const FILES: Record<string, string> = {
  "sc/__init__.py": "from .sorteddict import SortedDict\nfrom .sortedlist import SortedKeyList, SortedList\n",
  "sc/sortedlist.py": "class SortedList:\n    def __init__(self, iterable=None, key=None):\n        self._lists = []\n\n    def irange(self, minimum=None, maximum=None, inclusive=(True, True), reverse=False):\n        return iter(())\n\n\nclass SortedKeyList(SortedList):\n    def __init__(self, iterable=None, key=None):\n        super().__init__(iterable)\n        self._key = key\n\n    def irange_key(self, min_key=None, max_key=None, inclusive=(True, True), reverse=False):\n        return iter(())\n\n    _irange_key = irange_key\n\n    def irange(self, minimum=None, maximum=None, inclusive=(True, True), reverse=False):\n        min_key = self._key(minimum) if minimum is not None else None\n        max_key = self._key(maximum) if maximum is not None else None\n        return self._irange_key(min_key=min_key, max_key=max_key, inclusive=inclusive, reverse=reverse)\n",
  "sc/sorteddict.py": "from .sortedlist import SortedKeyList\n\n\nclass SortedDict(dict):\n    def __init__(self, key=None):\n        self._list = SortedKeyList(key=key)\n        _list = self._list\n        self.irange_key = _list.irange_key\n\n    def keys_between(self, lo, hi):\n        return list(self.irange_key(min_key=lo, max_key=hi))\n\n\nclass KeysIndex:\n    \"\"\"Borrows the key range of whatever sorted container it is given.\"\"\"\n\n    def __init__(self, source):\n        self.irange_key = source.irange_key\n\n    def between(self, lo, hi):\n        return list(self.irange_key(min_key=lo, max_key=hi))\n"
};

test('keywords through a class-body alias and a stored bound method are renamed; an untyped one is unsure', async (t) => {
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ['run', 'rename-symbol', '--at', 'sc/sortedlist.py:14:30', '--to', 'lo_key', '--verify', 'syntax'], { env: { TUG_NO_DAEMON: '1' } });
  t.is(run.exitCode, 0, run.stdout);
  const branch = run.json.git.branch;
  const sortedlist = await repo.git('show', `${branch}:sc/sortedlist.py`);
  t.true(sortedlist.includes('return self._irange_key(lo_key=min_key, max_key=max_key, inclusive=inclusive, reverse=reverse)'), sortedlist);
  const sorteddict = await repo.git('show', `${branch}:sc/sorteddict.py`);
  t.true(sorteddict.includes('return list(self.irange_key(lo_key=lo, max_key=hi))\n\n\nclass KeysIndex'), sorteddict);
  t.true(sorteddict.endsWith('return list(self.irange_key(min_key=lo, max_key=hi))'), 'the untyped one is left as it was');
  t.deepEqual(
    run.json.unsure.map((u: any) => `${u.file}:${u.line}:${u.col} ${u.text} ${u.reason}`),
    ['sc/sorteddict.py:21:37 self.irange_key(min_key=…) untyped_receiver'],
  );
  await repo.cleanup();
});
