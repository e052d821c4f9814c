// The operation records under refs/notes/tug: one note per result commit, written beside the commit so its id stays what it was.
import type { Repo } from './repo.js';
import { readBlobs, TUG_IDENTITY } from './objects.js';
import { git } from './run-git.js';

export const NOTES_REF = 'refs/notes/tug';

/** The identity of the notes ref's own commits. */
export const NOTES_ENV = {
  GIT_AUTHOR_NAME: TUG_IDENTITY.name,
  GIT_AUTHOR_EMAIL: TUG_IDENTITY.email,
  GIT_COMMITTER_NAME: TUG_IDENTITY.name,
  GIT_COMMITTER_EMAIL: TUG_IDENTITY.email,
};

/**
 * Attaches `text` to `commit` (replacing an older note). `git notes` takes the ref's lock; another tug writing a note
 * at the same moment makes it fail, so it tries again a few times before giving up.
 */
export async function writeNote(repo: Repo, commit: string, text: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const run = await git(noteArgs(commit), { cwd: repo.root, env: NOTES_ENV, input: text, allowFailure: true });
    if (run.exitCode === 0) return;
    if (attempt >= 5 || !/lock/i.test(run.stderr)) {
      await git(noteArgs(commit), { cwd: repo.root, env: NOTES_ENV, input: text });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
  }
}

/** `git notes add` of stdin's text to `commit`, replacing an older note. */
export function noteArgs<C>(commit: C): Array<string | C> {
  return ['notes', `--ref=${NOTES_REF}`, 'add', '-f', '-F', '-', commit];
}

/** The notes of these commits (commit → text); a commit without a note is absent from the map. */
export async function readNotes(repo: Repo, commits: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (commits.length === 0) return out;
  const list = await git(['notes', `--ref=${NOTES_REF}`, 'list'], { cwd: repo.root, allowFailure: true });
  if (list.exitCode !== 0) return out;
  const wanted = new Set(commits);
  const blobOf = new Map<string, string>();
  for (const line of list.stdout.split('\n')) {
    const [blob, commit] = line.trim().split(' ');
    if (blob && commit && wanted.has(commit)) blobOf.set(commit, blob);
  }
  const blobs = await readBlobs(repo, [...new Set(blobOf.values())]);
  const decoder = new TextDecoder();
  for (const [commit, blob] of blobOf) {
    const bytes = blobs.get(blob);
    if (bytes) out.set(commit, decoder.decode(bytes));
  }
  return out;
}
