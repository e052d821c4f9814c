// ava's settings. A file, not package.json's "ava" block, because the order test files start in is a function: ava runs
// two files at a time and all tests of a file at once, so a file lasts about as long as its longest test. The files
// whose longest test took 20 s or more on an idle 2-core machine start first, so that none of them can start last
// and hold the run while the other core idles; the many short files fill in at the end. With today's files the
// default order had no such tail (docs/PERFORMANCE.md, "Test suite run time": the run is CPU-bound, and the order
// changes little); this keeps it so as files are added. A file missing from the list starts in the default order.
const LONGEST_FIRST = [
  // By the longest test of each file, the most it took in the four quiet CI runs of 2026-11-27 06:01–07:26 UTC, longest
  // first.
  'rust-assists',
  'rust-rename',
  'rust-assist-catalog',
  'typescript-change-signature',
  'rust-doors',
  'typescript-inline',
  'python-local-ops',
  'typescript-move',
  'typescript-rename',
  'rust-move',
  'rust-extract-mut',
  'mcp-parity',
  'replay-rust',
  'rust-adapter',
  'adversarial/trust-mixed-languages',
  'rust-inline-literals',
  'adversarial/verify-isolation-python',
  'python-rename',
  'python-change-signature',
  'rust-change-signature',
  'rust-sweep-caught',
  'rust-sweep-defects',
  'plan',
  'python-cold',
  'python-real-package',
  'cli-docs-examples',
  'rust-inline-call',
  'cli-doctor',
  // Under 20 s in those runs, kept from earlier runs where they were longer.
  'python-report-layout',
  'typescript-verify',
  'python-layout',
  'typescript-warm',
  'rust-doors-move',
  'python-move-symbol',
  'typescript-doors',
  'python-sweep-defects',
  'python-inline-pure-calls',
  'rust-extract',
  'typescript-extract',
  'rust-sound',
  'typescript-file-rename',
  'rust-doctest-unsure',
];

/** Place in LONGEST_FIRST of a test file path (absolute or relative, .ts or the compiled .js), or the list's length. */
function rank(file) {
  const name = /tests\/(.+)\.test\.[jt]s$/.exec(file.replaceAll('\\', '/'))?.[1];
  const at = name === undefined ? -1 : LONGEST_FIRST.indexOf(name);
  return at === -1 ? LONGEST_FIRST.length : at;
}

export default {
  typescript: {
    rewritePaths: {
      'tests/': 'dist/tests/',
    },
    compile: false,
  },
  files: ['tests/**/*.test.ts'],
  timeout: '300s',
  concurrency: 2,
  workerThreads: false,
  environmentVariables: {
    TUG_DAEMON_AUTOSTART: '0',
  },
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b, 'en', { numeric: true }),
};
