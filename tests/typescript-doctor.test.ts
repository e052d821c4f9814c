// `tug doctor` names the TypeScript compiler the adapter will use: the project's installed one, else the one tug ships.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { TS_ENV as ENV, tsFixture } from './helpers/typescript.js';

type Check = { name: string; status: string; found: string | null };
const typescript = (json: { checks: Check[] }) => json.checks.find((c) => c.name === 'typescript')!;

test('doctor reports tug\'s own typescript in a project without one, and the project\'s when installed', async (t) => {
  const bare = await tsFixture('plain-js');
  const own = await tug(bare.root, ['doctor', '--json'], { env: ENV });
  t.like(typescript(own.json), { status: 'ok' });
  t.regex(typescript(own.json).found!, /^typescript \d+\.\d+\.\d+, shipped with tug/);
  const installed = await tsFixture('shapes', { '': ['typescript'] });
  const project = await tug(installed.root, ['doctor', '--json'], { env: ENV });
  t.regex(typescript(project.json).found!, /^typescript \d+\.\d+\.\d+ of the project \(node_modules\/typescript\); tug ships/);
  await bare.cleanup();
  await installed.cleanup();
});
