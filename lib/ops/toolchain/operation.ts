// `tug toolchain python|rust info|check|setup`: the interpreter or language server tug resolves, whether it can be used, and setting one up.
import { z } from 'zod';
import { SCHEMA_VERSION } from '../../core/schemas.js';
import { CommonFields, defineOperation } from '../operation.js';

const PythonInfo = z.object({
  found: z.boolean(),
  interpreter: z.string().nullable(),
  source: z.string().nullable(),
  version: z.string().nullable(),
  libcst: z.string().nullable(),
  searched: z.array(z.string()),
  managed_venv: z.string(),
});

const RustInfo = z.object({
  found: z.boolean(),
  rust_analyzer: z.string().nullable(),
  source: z.string().nullable(),
  version: z.string().nullable(),
  searched: z.array(z.string()),
  cargo: z.string().nullable(),
  clippy: z.boolean(),
});

const ToolchainResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  language: z.enum(['python', 'rust']),
  action: z.string(),
  python: PythonInfo.optional(),
  rust: RustInfo.optional(),
});

export const toolchainOperation = defineOperation({
  name: 'toolchain',
  tool: 'tug_toolchain',
  summary: 'Show, check or set up the Python interpreter or rust-analyzer tug uses.',
  lockFree: true,
  description:
    "Toolchains. Python: `info` shows the interpreter tug resolves (and everything it looked at), `check` fails with PythonNotFound when there is none (LibCST is optional: `info` says whether it is there), `setup` makes a managed venv in the session dir that reuses the base interpreter's site packages and pins it for the session. Rust: `info` shows the rust-analyzer (and the search) and cargo, `check` fails with RustAnalyzerNotFound, `setup` installs Debian's rust-analyzer into the project's .toolchains/ when none works.",
  input: z.object({
    ...CommonFields,
    language: z.enum(['python', 'rust']).describe('The language whose toolchain to inspect.'),
    action: z.enum(['info', 'check', 'setup']).describe('info, check or setup.'),
    python: z.string().optional().describe('Base interpreter to use instead of the resolved one.'),
    rust_analyzer: z.string().optional().describe('rust-analyzer binary to use instead of the discovered one.'),
  }),
  output: ToolchainResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  async execute(input, context) {
    const { withWorkspace } = await import('../workspace/workspace.js');
    if (input.language === 'rust') {
      const { assertRustUsable, rustInfo, setupRust } = await import('../../rust/toolchain.js');
      return withWorkspace(input, { lock: false }, async () => {
        const info = input.action === 'setup' ? await setupRust(input.rust_analyzer, context.progress) : await rustInfo(input.rust_analyzer);
        if (input.action === 'check' || input.action === 'setup') assertRustUsable(info);
        return ToolchainResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, language: 'rust', action: input.action, rust: info });
      });
    }
    const { assertUsable, pythonInfo, setupPython } = await import('../../python/toolchain.js');
    return withWorkspace(input, { lock: input.action === 'setup' }, async (ws) => {
      // The workspace is only where a version manager's shim chooses the interpreter; tug asks it isolated.
      const info = input.action === 'setup' ? await setupPython(ws.session.dir, input.python, ws.repo.root) : await pythonInfo(ws.session.dir, input.python, ws.repo.root);
      if (input.action === 'check') assertUsable(info);
      return ToolchainResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, language: 'python', action: input.action, python: info });
    });
  },
});
