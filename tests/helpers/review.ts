// Review fixtures without a repository: results built from before/after text, and a kernel that answers from memory.
import { diffFile } from '../../lib/core/change-groups.js';
import type { ActionOptions, ActionOutcome, Decisions, ResultSummary, ReviewKernel, ReviewResult } from '../../lib/review/types.js';

export const CORE_BEFORE = 'def process_data(x):\n    return x * 2\n\n\ndef more():\n    return process_data(3)\n';
export const CORE_AFTER = 'def transform_data(x):\n    return x * 2\n\n\ndef more():\n    return transform_data(3)\n';
export const MAIN_BEFORE = `from pkg.core import process_data\n${'\n'.repeat(8)}print(process_data(2))\n`;
export const MAIN_AFTER = `from pkg.core import transform_data\n${'\n'.repeat(8)}print(transform_data(2))\n`;

/** A rename of process_data in two files: main.py has two hunks, pkg/core.py one hunk with two groups. */
export function sampleResult(commit = 'c'.repeat(40)): ReviewResult {
  return {
    branch: 'tug/rename/process_data-to-transform_data',
    commit,
    base: 'b'.repeat(40),
    operation: 'rename-symbol',
    subject: 'refactor(rename): process_data -> transform_data',
    verification: 'passed (syntax)',
    files: [
      { path: 'main.py', status: 'modified', diff: diffFile(MAIN_BEFORE, MAIN_AFTER), splittable: true },
      { path: 'pkg/core.py', status: 'modified', diff: diffFile(CORE_BEFORE, CORE_AFTER), splittable: true },
    ],
  };
}

export const SAMPLE_SUMMARY: ResultSummary = {
  branch: 'tug/rename/process_data-to-transform_data',
  commit: 'c'.repeat(40),
  operation: 'rename-symbol',
  symbol: 'process_data -> transform_data',
  base: 'b'.repeat(40),
  files: 2,
  verification: 'passed (syntax)',
  createdAt: '2024-01-01T00:00:00.000Z',
  steps: 1,
};

export interface Call {
  action: string;
  decisions?: Decisions;
  confirmIncomplete?: boolean;
}

/** Records every call; answers are configurable per action. */
export function memoryKernel(answers: Partial<Record<'verify' | 'commit' | 'apply' | 'merge' | 'undo' | 'replay', ActionOutcome>> = {}, result: () => ReviewResult = sampleResult) {
  const calls: Call[] = [];
  const answer = (action: keyof typeof answers, decisions?: Decisions, options?: ActionOptions) => {
    calls.push({ action, ...(decisions ? { decisions } : {}), ...(options?.confirmIncomplete ? { confirmIncomplete: true } : {}) });
    // A confirmed incomplete subset is what the real kernel then commits.
    if (options?.confirmIncomplete) return Promise.resolve({ ok: true, message: `${action} done (confirmed)` });
    return Promise.resolve(answers[action] ?? { ok: true, message: `${action} done` });
  };
  const kernel: ReviewKernel = {
    list: async () => {
      calls.push({ action: 'list' });
      return [SAMPLE_SUMMARY];
    },
    open: async (branch) => {
      calls.push({ action: `open ${branch}` });
      return result();
    },
    verify: (_r, d) => answer('verify', d),
    commit: (_r, d, o) => answer('commit', d, o),
    apply: (_r, d, o) => answer('apply', d, o),
    merge: (_r, d, o) => answer('merge', d, o),
    undo: () => answer('undo'),
    replay: () => answer('replay'),
  };
  return { kernel, calls };
}
