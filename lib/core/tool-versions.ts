// The versions of the language tools this process has started (the Python worker's interpreter and LibCST,
// rust-analyzer), so each operation's record can say which tools planned it. Memory only: the adapters note a version
// when a tool starts; the change road reads them when it writes the record.

// On globalThis, not in this module: the CLI runs from bundles (launch, main) that each carry their own copy of this
// file, and the one that starts the Python worker is not the one that writes the record.
const KEY = Symbol.for('tug.toolVersions');
const shared = globalThis as { [KEY]?: Map<string, string> };
const seen = (shared[KEY] ??= new Map<string, string>());

export function noteToolVersion(tool: string, version: string | null | undefined): void {
  if (version) seen.set(tool, version);
}

/** The versions noted for these tools (absent when the tool has not run in this process). */
export function toolVersions(tools: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const tool of tools) {
    const version = seen.get(tool);
    if (version !== undefined) out[tool] = version;
  }
  return out;
}
