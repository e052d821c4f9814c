// The completeness check's renamed text goes to a second language service per project, so the services the analyses ask never leave the snapshot's program: building that program again after each committed rename was a warm call's largest cost after the searches.
import type * as TS from 'typescript';
import type { TsProject } from './projects.js';
import type { TsWorkspace } from './workspace-build.js';

/**
 * The trial services of one check: each project's kept one (TsProject.trial), given the check's texts when first
 * asked; `end` takes the texts out again, so nothing of this check is read by the next (its program is built anew
 * from this one's, the files whose text differs parsed again).
 */
export class TrialServices {
  private readonly used = new Map<TsProject, ReturnType<TsProject['trial']>>();

  constructor(
    private readonly ws: TsWorkspace,
    private readonly texts: ReadonlyMap<string, string>,
  ) {}

  /** The project's service over the texts put in. */
  readonly of = (project: TsProject): TS.LanguageService => {
    let trial = this.used.get(project);
    if (!trial) {
      trial = project.trial();
      trial.overlay.clear();
      for (const [file, text] of this.texts) trial.overlay.set(this.ws.fs.absolute(file), { text, version: 1 });
      this.used.set(project, trial);
    }
    return trial.service;
  };

  end(): void {
    for (const trial of this.used.values()) trial.overlay.clear();
    this.used.clear();
  }
}
