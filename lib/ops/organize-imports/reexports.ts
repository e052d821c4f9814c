// Which of the files organize-imports would change re-export an import another module takes from them: those are only
// sorted (as an `__init__.py` is), never stripped of "unused" imports (simplejson's compat.reload_module; issue 28 §3).
import { treeFilesMentioning } from '../../python/candidates.js';
import type { PythonSession } from '../../python/load-project.js';
import { factsFor } from '../../python/facts-source.js';
import { resolvePython } from '../../python/interpreter.js';
import { buildModuleMap, sourceRoots } from '../../python/modules.js';
import { reexports } from '../../python/reexports.js';
import type { SourceText } from '../../python/worker-pool.js';
import type { Repo } from '../../git/repo.js';
import type { SourceFile } from '../../core/patchset.js';
import { loadSourceFiles } from '../change/source-files.js';

const isInit = (path: string) => /(^|\/)__init__\.pyi?$/.test(path);

/** Of `changed` (files organizing would change), those that bind by import a name another module imports from them. */
export async function reexportingFiles(repo: Repo, session: PythonSession, tree: string, paths: readonly string[], changed: readonly string[], sources: ReadonlyMap<string, SourceFile>, python: string | undefined): Promise<Set<string>> {
  const pyPaths = paths.filter((p) => /\.pyi?$/.test(p));
  const modules = buildModuleMap(pyPaths, sourceRoots(pyPaths));
  const candidates = changed.filter((t) => t.endsWith('.py') && !isInit(t) && modules.byFile.has(t));
  if (candidates.length === 0) return new Set();
  // A module is named by its last component wherever it is imported (`from .compat import x`, `import pkg.compat`).
  const lasts = [...new Set(candidates.map((t) => modules.byFile.get(t)!.split('.').pop()!))];
  const users = [...(await treeFilesMentioning(repo, tree, lasts))].filter((p) => modules.byFile.has(p));
  const wanted = [...new Set([...users, ...candidates])].sort();
  const more = await loadSourceFiles(repo, tree, wanted.filter((p) => !sources.has(p)), { allowBinary: true });
  const decoder = new TextDecoder();
  const texts: SourceText[] = wanted.map((p) => {
    const file = sources.get(p) ?? more.get(p)!;
    return { path: p, oid: file.oid, text: decoder.decode(file.bytes) };
  });
  const interpreter = async () => (await resolvePython(python, session.dir)).path;
  const { facts } = await factsFor({ python: interpreter, cacheDir: `${session.paths.facts}/imports`, workersDir: session.paths.workers, files: texts, skipUnparsable: true });
  return new Set(candidates.filter((t) => facts.has(t) && reexports(facts.get(t)!, modules.byFile.get(t)!, modules, facts)));
}
