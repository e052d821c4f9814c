// Picks the known name closest to a mistyped one, so every "unknown X" error can say what was probably meant.

/** Edit distance (insert, delete, substitute, swap two neighbours), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const rows: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[s.length]![t.length]!;
}

/**
 * Known names ordered closest first (ties by name, so the answer is deterministic). A name that is a prefix of the typed
 * one or the other way round counts as close whatever its length (`--verb` for `--verbose`).
 */
export function closestNames(typed: string, known: readonly string[]): string[] {
  const score = (name: string) => (name.startsWith(typed) || typed.startsWith(name) ? Math.min(1, editDistance(typed, name)) : editDistance(typed, name));
  return [...new Set(known)].map((name) => ({ name, d: score(name) })).sort((x, y) => x.d - y.d || x.name.localeCompare(y.name)).map((x) => x.name);
}

/** The closest known name when it is plausibly what was meant (at most a third of the letters differ), else undefined. */
export function didYouMean(typed: string, known: readonly string[]): string | undefined {
  const [best] = closestNames(typed, known);
  if (best === undefined) return undefined;
  const limit = Math.max(2, Math.ceil(Math.max(typed.length, best.length) / 3));
  return best.startsWith(typed) || typed.startsWith(best) || editDistance(typed, best) <= limit ? best : undefined;
}
