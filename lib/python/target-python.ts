// The oldest Python a project says it runs on (pyproject.toml's requires-python, or Poetry's python dependency): the
// rules generated code must follow where they differ by version (an f-string's replacement field before 3.12).
import { readBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import { listTreePaths } from '../git/snapshot.js';

/** The lowest `major.minor` a requirement such as `>=3.11,<4`, `~=3.10`, `^3.9` or `==3.11.*` admits, if it names one. */
export function lowestPython(requirement: string): string | undefined {
  const versions: [number, number][] = [];
  for (const clause of requirement.split(/[,|]/)) {
    const match = /^\s*(>=|~=|==|===|>|\^|~)?\s*(\d+)\.(\d+)/.exec(clause);
    if (match && !(match[1] === undefined && /[<!]/.test(clause))) versions.push([Number(match[2]), Number(match[3])]);
  }
  if (versions.length === 0) return undefined;
  const [major, minor] = versions.sort((a, b) => a[0] - b[0] || a[1] - b[1])[0]!;
  return `${major}.${minor}`;
}

/** The project's target Python from the snapshot's top-level pyproject.toml; undefined: the interpreter's own version. */
export async function targetPython(repo: Repo, tree: string): Promise<string | undefined> {
  const entry = (await listTreePaths(repo, tree, ['pyproject.toml'])).find((e) => e.path === 'pyproject.toml' && e.type === 'blob');
  if (!entry) return undefined;
  const bytes = (await readBlobs(repo, [entry.oid])).get(entry.oid);
  if (!bytes) return undefined;
  let toml: Record<string, unknown>;
  try {
    const { parse } = await import('smol-toml');
    toml = parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return undefined; // a pyproject.toml tug cannot read says nothing about the target; the interpreter decides
  }
  const project = toml['project'] as Record<string, unknown> | undefined;
  const poetry = ((toml['tool'] as Record<string, unknown> | undefined)?.['poetry'] as Record<string, unknown> | undefined)?.['dependencies'] as Record<string, unknown> | undefined;
  const requirement = project?.['requires-python'] ?? poetry?.['python'];
  return typeof requirement === 'string' ? lowestPython(requirement) : undefined;
}
