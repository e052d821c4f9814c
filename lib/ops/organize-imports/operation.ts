// `organize-imports`: clean up a file's imports.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { flagFields, rustAnalyzerFlag } from '../change/cli-flags.js';
import { organizeImportsInput } from './schema.js';

export const organizeImportsOperation = defineOperation({
  name: 'organize-imports',
  tool: 'tug_organize_imports',
  summary: 'Sort and clean the imports of a file, some files or all files.',
  description:
    "Organize imports. Python (one file, several, or all of the repository): ruff's own rules, I001 (sort and group: future, standard library, third party, first party, local; the repository's packages count as first party) and F401 (remove unused imports), with the project's [tool.ruff.lint.isort], ruff.toml or [tool.isort] settings; names in __all__, # noqa and # isort: skip are kept, and an __init__.py is only sorted (its imports are the package's interface). Running it twice changes nothing. Rust (one file): the imports rustc's unused_imports lint flags in every build of the file (cargo check --all-targets; one used only by tests stays), then rustfmt with the project's rustfmt.toml over the whole file if rustfmt would change nothing there but imports (then the result is cargo fmt's; unsorted imports are sorted even with nothing unused), else over the changed use blocks only. TypeScript/JavaScript (one file or several): the TypeScript language service's organizeImports (sorted, merged, unused removed). Verified in a sandbox, committed on tug/organize-imports/<file>.",
  input: organizeImportsInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runOrganizeImports } = await import('./run.js');
    return runOrganizeImports(input, context);
  },
  cli: {
    flags: {
      file: { type: 'string', array: true, describe: 'A file whose imports to organize (repeatable; Python files only when several)' },
      all: { type: 'boolean', describe: 'Python: every Python file of the repository' },
      'rust-analyzer': rustAnalyzerFlag,
    },
    fields: (args) => {
      const files = Array.isArray(args['file']) ? (args['file'] as string[]) : undefined;
      return { ...flagFields(args, ['all', 'rust-analyzer']), ...(files ? (files.length === 1 ? { file: files[0] } : { files }) : {}) };
    },
    shorthand: 'organize-imports',
    examples: ['tug run organize-imports --file src/pkg/core.py', 'tug run organize-imports --all --verify tests', 'tug run organize-imports --file src/lib.rs'],
  },
});
