// The blob writer (one `git fast-import`) on a full disk: DiskFull, not InternalError, and nothing fast-import leaves when
// it dies (its crash report `fast_import_crash_<pid>`, a half-written `tmp_pack_*`) stays in the user's .git.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { existsSync } from 'node:fs';
import { TUG_BIN } from '../helpers/cli.js';

const BWRAP = ['/usr/bin/bwrap', '/bin/bwrap'].find((candidate) => existsSync(candidate));

/**
 * A repository on a 2 MB tmpfs at /full with FILES Python files of SIZE random characters each, the disk then filled
 * up to ROOM kB, and a --commit rename of f in every file: its new blobs are what runs out of space.
 */
const SCRIPT = `
set -e
cd /full && git init -q -b main r && cd r
git config user.name a && git config user.email a@b
node -e '
const fs = require("fs"), crypto = require("crypto"), edits = [];
for (let i = 0; i < Number(process.env.FILES); i++) {
  fs.writeFileSync("m" + i + ".py", "def f():\\n    return \\"" + crypto.randomBytes(Number(process.env.SIZE)).toString("base64") + "\\"\\n");
  edits.push({ file: "m" + i + ".py", line: 1, col: 5, old_text: "f", new_text: "g" });
}
fs.writeFileSync("/elsewhere/patch.json", JSON.stringify({ edits }));'
git add . && git commit -qm init
avail=$(df -k --output=avail /full | tail -1)
dd if=/dev/zero of=/full/filler bs=1k count=$((avail - ROOM)) 2>/dev/null || true
set +e
"$TUG" apply-patchset -f /elsewhere/patch.json --commit --verify none --session-dir /elsewhere/session
code=$?; echo; echo "exit=$code"
echo "left=$(find .git -name 'fast_import_crash_*' -o -name 'tmp_pack_*' -o -name 'tmp_idx_*' | sort | tr '\\n' ' ')"
git diff --quiet HEAD; echo "status=$?"
echo "commits=$(git rev-list --count HEAD)"
`;

async function run(files: number, size: number, room: number) {
  return execa(BWRAP!, ['--dev-bind', '/', '/', '--size', '2097152', '--tmpfs', '/full', '--tmpfs', '/elsewhere', 'bash', '-c', SCRIPT], {
    reject: false,
    env: { TUG: TUG_BIN, TUG_NO_DAEMON: '1', TUG_LOCK_TIMEOUT_MS: '2000', FILES: String(files), SIZE: String(size), ROOM: String(room) },
    timeout: 240_000,
  });
}

const cases: Array<[string, number, number, number]> = [
  // No room at all: fast-import cannot write the first byte of its pack ("write error. Out of diskspace").
  ['a disk with no room left', 3, 200, 0],
  // Room for part of the pack: 120 blobs of ~3 kB (more than fastimport.unpackLimit, so one pack) in 150 kB.
  ['a disk that fills up half way through the pack', 120, 3000, 150],
];

for (const [title, files, size, room] of cases) {
  (BWRAP ? test : test.skip)(`blob write on ${title}: DiskFull, no crash report or temporary pack left in .git`, async (t) => {
    const probe = await execa(BWRAP!, ['--dev-bind', '/', '/', '--size', '2097152', '--tmpfs', '/full', 'true'], { reject: false });
    if (probe.exitCode !== 0) {
      t.log(`bubblewrap cannot mount a tmpfs here: ${probe.stderr}`);
      return t.pass();
    }
    const result = await run(files, size, room);
    const [json, rest = ''] = result.stdout.split(/^exit=/m);
    const out = JSON.parse(json!);
    t.is(out.error?.code, 'DiskFull', `${JSON.stringify(out)}\n${result.stderr}`);
    t.is(out.error.details.reason, 'ENOSPC');
    t.regex(out.error.details.command, /fast-import/, 'the blob write is what ran out of space');
    t.regex(rest, /^4\n/, 'exit code 4');
    t.regex(rest, /^left=$/m, 'nothing fast-import left behind');
    t.regex(rest, /^status=0$/m, 'the work tree and index equal HEAD');
    t.regex(rest, /^commits=1$/m, 'no commit was added');
  });
}
