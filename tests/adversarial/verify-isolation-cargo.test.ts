// Rust verification must build the sandbox, never the user's checkout: a path dependency or a [patch] that names the
// working tree by an absolute path is refused (VerificationNotIsolated), and nothing is built.
import test, { type ExecutionContext } from 'ava';
import { execa } from '../helpers/execa.js';
import { patchset, tug } from '../helpers/cli.js';
import { makeRepo, repoState } from '../helpers/repo.js';
import { missing } from '../helpers/toolchains.js';

/** Only cargo is needed here (no rust-analyzer): the change is a patchset, verified by cargo check and cargo test. */
async function requireCargo(t: ExecutionContext): Promise<boolean> {
  if ((await execa('cargo', ['--version'], { reject: false, stdin: 'ignore' })).exitCode === 0) return true;
  missing(t, 'cargo is not installed');
  return false;
}

const LIB = 'pub fn area(w: u32, h: u32) -> u32 {\n    w * h\n}\n';
const APP_MAIN = 'fn main() {\n    println!("{}", shapes::area(2, 3));\n}\n\n#[test]\nfn six() {\n    assert_eq!(shapes::area(2, 3), 6);\n}\n';
/** Breaks the library: the change must never be called verified. */
const BREAK = patchset([{ file: 'shapes/src/lib.rs', line: 2, col: 5, old_text: 'w * h', new_text: 'w * h +' }]);

function workspace(depLine: (root: string) => string) {
  return (root: string) => ({
    // shapes is no member: the workspace builds it only as app's dependency, from wherever app's manifest says.
    'Cargo.toml': `[workspace]\nmembers = ["app"]\nexclude = ["shapes"]\nresolver = "2"\n`,
    'app/Cargo.toml': `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${depLine(root)}\n`,
    'app/src/main.rs': APP_MAIN,
    'shapes/Cargo.toml': '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n',
    'shapes/src/lib.rs': LIB,
  });
}

const CASES = {
  'a path dependency at the working tree': workspace((root) => `shapes = { path = "${root}/shapes" }`),
  'a relative path dependency stays in the sandbox and fails as it should': workspace(() => 'shapes = { path = "../shapes" }'),
};

for (const [name, files] of Object.entries(CASES)) {
  test(`a change that breaks a crate never passes cargo verification: ${name}`, async (t) => {
    if (!(await requireCargo(t))) return;
    const repo = await makeRepo({});
    for (const [file, text] of Object.entries(files(repo.root))) await repo.write(file, text);
    await repo.git('add', '-A');
    await repo.git('commit', '-q', '-m', 'initial');
    const before = await repoState(repo);
    const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--json'], { env: { TUG_DAEMON_AUTOSTART: '0' }, input: BREAK });
    t.is(run.exitCode, 5, run.stdout + run.stderr);
    if (name.startsWith('a relative')) t.is(run.json.error.code, 'VerificationFailed', run.stdout);
    else {
      t.is(run.json.error.code, 'VerificationNotIsolated', run.stdout);
      t.is(run.json.error.details.package, 'app/Cargo.toml');
      t.is(run.json.error.details.path, `${repo.root}/shapes`);
    }
    t.is(await repoState(repo), before);
    await repo.cleanup();
  });
}
