// The document registry as the completeness check's trial services (trial.ts) see it: the snapshot's parsed files shared with the kept services, the renamed texts parsed for the trial alone.
import type * as TS from 'typescript';
import type { TypeScriptModule } from './load.js';

/**
 * The shared document registry as one trial service sees it. The snapshot's files come from the registry (parsed once,
 * shared with the kept services: nothing parsed again); a text put in (an overlay version, `o…`) is parsed for this
 * service alone and never enters the registry. The registry counts each service's hold on a file, so this one releases
 * exactly what it acquired there, whatever texts it moved through since.
 */
export function trialRegistry(ts: TypeScriptModule, shared: TS.DocumentRegistry): TS.DocumentRegistry {
  const held = new Set<string>();
  const own = (fileName: string, snapshot: TS.IScriptSnapshot, settings: TS.CompilerOptions | TS.MinimalResolutionCacheHost, version: string, kind?: TS.ScriptKind, options?: TS.CreateSourceFileOptions) => {
    const host = settings as TS.MinimalResolutionCacheHost;
    const target = options ?? (typeof host.getCompilationSettings === 'function' ? host.getCompilationSettings() : (settings as TS.CompilerOptions)).target ?? ts.ScriptTarget.ES5;
    return ts.createLanguageServiceSourceFile(fileName, snapshot, target, version, false, kind);
  };
  // By settings key and path, as the service releases a file (a file's kind and module format do not change under one host).
  const holdKey = (path: string, key: string) => `${key}\0${path}`;
  return {
    ...shared,
    acquireDocumentWithKey(fileName, path, settings, key, snapshot, version, kind, options) {
      if (version.startsWith('o')) return own(fileName, snapshot, settings, version, kind, options as TS.CreateSourceFileOptions | undefined);
      held.add(holdKey(path, key));
      return shared.acquireDocumentWithKey(fileName, path, settings, key, snapshot, version, kind, options);
    },
    updateDocumentWithKey(fileName, path, settings, key, snapshot, version, kind, options) {
      if (version.startsWith('o')) return own(fileName, snapshot, settings, version, kind, options as TS.CreateSourceFileOptions | undefined);
      const hold = holdKey(path, key);
      if (held.has(hold)) return shared.updateDocumentWithKey(fileName, path, settings, key, snapshot, version, kind, options);
      // It had this file from its own text until now: the snapshot's file is acquired, once.
      held.add(hold);
      return shared.acquireDocumentWithKey(fileName, path, settings, key, snapshot, version, kind, options);
    },
    releaseDocumentWithKey(path: TS.Path, key: TS.DocumentRegistryBucketKey, kind?: TS.ScriptKind, format?: TS.ResolutionMode) {
      if (held.delete(holdKey(path, key))) shared.releaseDocumentWithKey(path, key, kind!, format);
    },
  };
}
