// A real mid-size package for the Python benchmark: a Debian python3-* package's modules, copied into a repository under /tmp.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cachedRepo } from './lib.mjs';

const DIST = '/usr/lib/python3/dist-packages';

/**
 * The repository holding `module` from Debian's `debian` package, installed with apt-get when missing (as root);
 * null when it cannot be had. Nothing of it is committed to tug: the copy lives in the benchmark's cache.
 */
export function debianPackageRepo(debian, module) {
  if (!existsSync(path.join(DIST, module))) {
    process.stderr.write(`bench: installing ${debian} with apt-get…\n`);
    const run = spawnSync('apt-get', ['install', '-y', '-q', debian], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (run.status !== 0 || !existsSync(path.join(DIST, module))) return null;
  }
  const version = spawnSync('dpkg-query', ['-W', '-f=${Version}', debian], { encoding: 'utf8' }).stdout.trim() || 'unknown';
  const repo = cachedRepo(`py-${debian}-${version.replace(/[^\w.-]/g, '_')}`, (dir) =>
    cpSync(path.join(DIST, module), path.join(dir, module), { recursive: true, filter: (src) => !src.includes('__pycache__') }),
  );
  return { repo, version };
}

/** 1-based line and column of the name in the first line of `file` that contains `text`. */
export function locate(repo, file, text, name) {
  const lines = readFileSync(path.join(repo, file), 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes(text));
  if (index < 0) throw new Error(`${file} has no line with ${text}`);
  return { line: index + 1, col: lines[index].indexOf(name, lines[index].indexOf(text)) + 1 };
}
