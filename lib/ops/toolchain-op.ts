// `tug toolchain python info|check|setup`: the interpreter tug resolves, whether it can be used, and a managed venv.
import { z } from 'zod';
import { SCHEMA_VERSION } from '../core/schemas.js';
import { CommonFields, defineOperation } from './operation.js';

const PythonInfo = z.object({
  found: z.boolean(),
  interpreter: z.string().nullable(),
  source: z.string().nullable(),
  version: z.string().nullable(),
  libcst: z.string().nullable(),
  searched: z.array(z.string()),
  managed_venv: z.string(),
});

const ToolchainResponse = z.object({ status: z.literal('ok'), schema_version: z.literal(SCHEMA_VERSION), language: z.literal('python'), action: z.string(), python: PythonInfo });

export const toolchainOperation = defineOperation({
  name: 'toolchain',
  tool: 'tug_toolchain',
  description:
    "Python toolchain: `info` shows the interpreter tug resolves (and everything it looked at), `check` fails with PythonNotFound or LibCSTNotAvailable when it is unusable, `setup` makes a managed venv in the session dir that reuses the base interpreter's site packages and pins it for the session.",
  input: z.object({
    ...CommonFields,
    language: z.literal('python').describe('The language whose toolchain to inspect.'),
    action: z.enum(['info', 'check', 'setup']).describe('info, check or setup.'),
    python: z.string().optional().describe('Base interpreter to use instead of the resolved one.'),
  }),
  output: ToolchainResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async execute(input) {
    const { withWorkspace } = await import('./workspace.js');
    const { assertUsable, pythonInfo, setupPython } = await import('../python/toolchain.js');
    return withWorkspace(input, { lock: input.action === 'setup' }, async (ws) => {
      const info = input.action === 'setup' ? await setupPython(ws.session.dir, input.python) : await pythonInfo(ws.session.dir, input.python);
      if (input.action === 'check') assertUsable(info);
      return ToolchainResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, language: 'python', action: input.action, python: info });
    });
  },
});
