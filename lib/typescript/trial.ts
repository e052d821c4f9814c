// Language services of their own for the completeness check's renamed text, so the services the analyses ask never leave the snapshot's program: building that program again after each committed rename was a warm call's largest cost after the searches.
import type * as TS from 'typescript';
import { Overlay, type TsProject } from './projects.js';
import type { TsWorkspace } from './workspace-build.js';

/**
 * The trial services of one check: each project's, made when first asked, over the same texts put in, all disposed of
 * together (their files go back to the registry's count; the texts put in go with them).
 */
export class TrialServices {
  private readonly overlay: Overlay;
  private readonly services = new Map<TsProject, TS.LanguageService>();

  constructor(
    private readonly ws: TsWorkspace,
    texts: ReadonlyMap<string, string>,
  ) {
    this.overlay = new Overlay((file) => ws.fs.fileExists(file));
    for (const [file, text] of texts) this.overlay.set(ws.fs.absolute(file), { text, version: 1 });
  }

  /** The project's service over the texts put in. */
  readonly of = (project: TsProject): TS.LanguageService => {
    let service = this.services.get(project);
    if (!service) this.services.set(project, (service = project.trial(this.overlay)));
    return service;
  };

  dispose(): void {
    for (const service of this.services.values()) service.dispose();
    this.services.clear();
  }
}
