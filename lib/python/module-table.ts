// Modules by name, noting every lookup of a module the repository has but the project did not load, so a partial load can grow.

export class ModuleTable<V> extends Map<string, V> {
  /** Modules asked for (get/has) that exist in the repository but are not in the table. */
  readonly missed = new Set<string>();
  private known: ReadonlyMap<string, unknown> | undefined;

  /** The repository's modules: lookups of these that miss are noted; lookups of anything else are not. */
  watch(known: ReadonlyMap<string, unknown>): void {
    this.known = known;
  }

  override get(name: string): V | undefined {
    const value = super.get(name);
    if (value === undefined) this.note(name);
    return value;
  }

  override has(name: string): boolean {
    const found = super.has(name);
    if (!found) this.note(name);
    return found;
  }

  private note(name: string): void {
    if (this.known?.has(name)) this.missed.add(name);
  }
}
