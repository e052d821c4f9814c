// ava's settings. A file, not package.json's "ava" block, because the order test files start in is a function: ava runs
// two files at a time and all tests of a file at once, so a file lasts about as long as its longest test. The files
// whose longest test took 20 s or more on an idle 2-core machine start first, so that none of them can start last
// and hold the run while the other core idles; the many short files fill in at the end. With today's files the
// default order had no such tail (docs/PERFORMANCE.md, "Test suite run time": the run is CPU-bound, and the order
// changes little); this keeps it so as files are added. A file missing from the list starts in the default order.
const LONGEST_FIRST = [
  // Two MCP calls side by side whose verification sleeps 75 s (past the SDK client's 60 s timeout): little CPU, but
  // still the longest file.
  'mcp-long-verify',
  'rust-sweep-defects',
  'python-local-ops',
  'rust-assist-catalog',
  'rust-rename',
  'typescript-inline',
  'plan',
  'python-move-symbol',
  'rust-assists',
  'typescript-change-signature',
  'python-change-signature',
  'rust-change-signature',
  'rust-sound',
  'python-rename',
  'python-report-layout',
  'typescript-move',
  'python-layout',
  'rust-extract',
  'rust-doors',
  'python-cold',
  'rust-doctest-unsure',
  'rust-adapter',
  'typescript-rename',
  'typescript-file-rename',
  'replay-rust',
  'adversarial/verify-isolation-python',
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
