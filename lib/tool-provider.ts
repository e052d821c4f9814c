// The extension point for hosts: a ToolProvider adds its own operations to tug's registry, and every front door that
// takes providers (agentTools, the MCP server) serves them with tug's guards: strict inputs, workspace confinement,
// the error envelope and output schemas.
import { TugError } from './core/errors.js';
import type { Operation } from './ops/operation.js';
import { operations as builtIn } from './ops/registry.js';

/**
 * A host's tools. Each is an Operation (see `defineOperation`): a zod input schema (add `workspace:
 * z.string().optional()` to receive the directory the call works in, already confined), a zod output schema, the
 * behaviour hints, and `execute`, which throws `TugError` for failures.
 */
export interface ToolProvider {
  /** Shown in errors about its tools. */
  name: string;
  operations: readonly Operation[];
}

/** tug's operations followed by each provider's, in order; a name used twice is refused. */
export function registryWith(providers: readonly ToolProvider[] = []): Operation[] {
  const all: Operation[] = [...builtIn];
  const seen = new Map<string, string>(builtIn.flatMap((op) => [op.name, op.tool, ...(op.agentName ? [op.agentName] : [])].map((n) => [n, 'tug'] as const)));
  for (const provider of providers) {
    for (const op of provider.operations) {
      for (const name of new Set([op.name, op.tool, ...(op.agentName ? [op.agentName] : [])])) {
        const owner = seen.get(name);
        if (owner !== undefined) {
          throw new TugError('InvalidArgument', `tool provider ${provider.name}: the name ${name} is already taken by ${owner}`, {
            details: { argument: 'providers', reason: 'duplicate tool name', name, owner },
          });
        }
        seen.set(name, provider.name);
      }
      all.push(checked(provider.name, op));
    }
  }
  return all;
}

export function findIn(registry: readonly Operation[], name: string): Operation | undefined {
  return registry.find((op) => op.name === name || op.tool === name || op.agentName === name);
}

/**
 * A provider's operation whose results are checked against its own output schema: a result the schema refuses is
 * ProviderContractViolation naming the provider and the tool (the MCP client would otherwise refuse the result with a
 * protocol error, and agentTools would pass it on unchecked).
 */
function checked(provider: string, op: Operation): Operation {
  return {
    ...op,
    async execute(input, context) {
      const result: unknown = await op.execute(input, context);
      const parsed = op.output.safeParse(result);
      if (parsed.success) return result;
      const issues = parsed.error.issues.slice(0, 20).map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
      const first = issues[0];
      throw new TugError('ProviderContractViolation', `tool provider ${provider}: ${op.tool} returned a result its output schema refuses${first ? ` (${first.path || 'result'}: ${first.message})` : ''}`, {
        details: { provider, tool: op.tool, issues },
      });
    },
  };
}
