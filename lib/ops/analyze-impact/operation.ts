// `analyze-impact`: what a refactor would change, computed on the snapshot; nothing is written.
import { defineOperation } from '../operation.js';
import { AnalyzeImpactResponse, analyzeImpactInput } from './schema.js';

export const analyzeImpactOperation = defineOperation({
  name: 'analyze-impact',
  tool: 'tug_analyze_impact',
  summary: 'Preview what a refactor (operation + its parameters) would change, without writing anything.',
  description:
    'Show what a refactor would touch, never writing anything. rename_symbol: the symbol, every reference (ordered by file, line, column) and warnings. The other refactors: the patch (edits and unified diff) a run would verify and commit, with warnings and unsure places.',
  input: analyzeImpactInput,
  output: AnalyzeImpactResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input, context) {
    const { runAnalyzeImpact } = await import('./run.js');
    return runAnalyzeImpact(input, context);
  },
});
