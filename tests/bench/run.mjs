// `npm run bench`: tug and its baselines measured side by side in one run, printed as markdown for docs/PERFORMANCE.md.
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { kernelReport, snapshotBench, startupBench, worktreeBench } from './kernel.mjs';
import { pythonBench, pythonReport } from './python.mjs';

const quick = process.argv.includes('--quick');
const header = [
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench\` on ${os.cpus().length} cores, Node ${process.version}, ${execFileSync('git', ['--version'], { encoding: 'utf8' }).trim()}.`,
  '',
];
process.stderr.write('bench: snapshot (generating the 20,000-file repo on first use)…\n');
const snapshot = snapshotBench(quick ? 3 : 7);
process.stderr.write('bench: worktrees…\n');
const worktree = worktreeBench(snapshot.repo, quick ? 2 : 5);
process.stderr.write('bench: startup…\n');
const startup = startupBench(quick ? 5 : 15);
process.stderr.write('bench: python rename vs jedi…\n');
const python = pythonBench(quick ? 2 : 3);
process.stdout.write(`${[...header, kernelReport(snapshot, worktree, startup), pythonReport(python)].join('\n')}\n`);
