// `npm run bench`: tug and its baselines measured side by side in one run, printed as markdown for docs/PERFORMANCE.md.
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { kernelReport, snapshotBench, startupBench, worktreeBench } from './kernel.mjs';
import { patchsetBench, patchsetReport } from './patchset.mjs';
import { pythonBench, pythonReport } from './python.mjs';
import { largeBench, largeReport } from './python-large.mjs';
import { pythonOpsBench, pythonOpsReport } from './python-ops.mjs';
import { pythonOpsRealBench, pythonOpsRealReport } from './python-ops-real.mjs';
import { rustBench, rustReport } from './rust.mjs';
import { daemonBench, daemonReport } from './daemon.mjs';
import { planBench, planReport } from './plan.mjs';
import { typescriptBench, typescriptReport } from './typescript.mjs';
import { floorBench, floorReport, packageBench, packageReport, realSubjects } from './python-floor.mjs';
import { scaleBench, scaleReport, scaleSubject, warmBench, warmReport } from './python-scale.mjs';

// Every process measured is a fresh one unless a section asks for a daemon: none starts on its own.
process.env['TUG_DAEMON_AUTOSTART'] = '0';

const quick = process.argv.includes('--quick');
// `--only=kernel|patchset|python|floor|python-ops|rust|typescript|daemon|plan` runs one section (the others take minutes).
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const wanted = (section) => only === undefined || only === section;
const sections = [
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench\` on ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)} at the start), Node ${process.version}, ${execFileSync('git', ['--version'], { encoding: 'utf8' }).trim()}.`,
  '',
];
if (wanted('kernel')) {
  process.stderr.write('bench: snapshot (generating the 20,000-file repo on first use)…\n');
  const snapshot = snapshotBench(quick ? 3 : 7);
  process.stderr.write('bench: worktrees…\n');
  const worktree = worktreeBench(snapshot.repo, quick ? 2 : 5);
  process.stderr.write('bench: startup…\n');
  const startup = startupBench(quick ? 5 : 15);
  sections.push(kernelReport(snapshot, worktree, startup));
}
if (wanted('patchset')) {
  process.stderr.write('bench: apply-patchset, 50,000 edits over 500 files, vs git apply…\n');
  sections.push(patchsetReport(patchsetBench(quick ? 1 : 3)));
}
if (wanted('python')) {
  process.stderr.write('bench: python rename vs jedi…\n');
  sections.push(pythonReport(pythonBench(quick ? 2 : 3)));
  process.stderr.write('bench: python cold analysis on a large repository vs ast.parse of every file…\n');
  sections.push(largeReport(largeBench(quick ? 1 : 3)));
}
if (wanted('floor')) {
  process.stderr.write('bench: cold analyze-impact vs its floor, parse-all and jedi; scaling; warm paths (issue 33)…\n');
  // Each table goes to stderr as soon as it is measured too: the whole section takes minutes.
  const done = (report) => (sections.push(report), process.stderr.write(`${report}\n`));
  const real = realSubjects();
  done(floorReport(floorBench(quick ? 3 : 5, real)));
  done(packageReport(packageBench(quick ? 3 : 5)));
  done(scaleReport(scaleBench(quick ? 1 : 3)));
  done(warmReport(await warmBench(quick ? 5 : 15, [...real, scaleSubject(20000)])));
}
if (wanted('python-ops')) {
  process.stderr.write('bench: python extract-variable, inline, organize-imports, change-signature vs rope…\n');
  sections.push(pythonOpsReport(pythonOpsBench(quick ? 2 : 5)));
  process.stderr.write('bench: the same refactors on Jinja2 (Debian python3-jinja2) vs rope…\n');
  sections.push(pythonOpsRealReport(pythonOpsRealBench(quick ? 2 : 5)));
}
if (wanted('rust')) {
  process.stderr.write('bench: rust rename, cold vs warm daemon…\n');
  sections.push(rustReport(rustBench(quick ? 1 : 2)));
}
if (wanted('typescript')) {
  process.stderr.write('bench: typescript rename, cold vs a bare tsserver, and warm, on 500 modules…\n');
  sections.push(typescriptReport(await typescriptBench(500, quick ? 1 : 3)));
}
if (wanted('daemon')) {
  process.stderr.write('bench: one daemon, 20 repositories in a row…\n');
  sections.push(daemonReport(daemonBench(quick ? 1 : 2)));
}
if (wanted('plan')) {
  process.stderr.write('bench: a ten-step plan vs the same ten operations one by one, each verified with the tests…\n');
  sections.push(planReport(planBench(quick ? 1 : 2)));
}
process.stdout.write(`${sections.join('\n')}\n`);
