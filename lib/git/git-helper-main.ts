// The git helper process of a long-lived tug (git-helper.ts): a small process that starts git for it, because starting a process from the daemon's ~200 MB costs ~10 ms of its main thread (fork copies its page tables) and from this one ~1.5 ms.
import { FrameReader, frame } from './frames.js';
import { spawnGit } from './spawn-git.js';

interface Request {
  id: number;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  input: boolean;
  timeoutMs: number;
}

/**
 * Answers go out on stdout, the pipe to the tug that started it (no terminal or MCP stream: this is a process of its
 * own). Not a further descriptor: git started from here would inherit it (only 0–2 are replaced in a child).
 */
const answers = process.stdout;

const reader = new FrameReader((header, parts) => {
  const request = header as unknown as Request;
  void spawnGit(request.args, { cwd: request.cwd, env: request.env, input: request.input ? parts[0] : undefined, timeoutMs: request.timeoutMs }).then((result) =>
    answers.write(frame({ id: request.id, exitCode: result.exitCode, ...(result.pid === undefined ? {} : { pid: result.pid }) }, [result.stdout, result.stderr])),
  );
});
process.stdin.on('data', (chunk: Buffer) => reader.push(chunk));
// The tug that started it is gone (or let it go): nothing more will be asked.
process.stdin.on('end', () => process.exit(0));
answers.on('error', () => process.exit(0));
answers.write(frame({ ready: true }, []));
