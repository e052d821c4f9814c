// Verification of an unchanged snapshot: the same sandbox and checks a change gets, with every source file in scope.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { SCHEMA_VERSION, VerifyResponse } from '../../core/schemas.js';
import { listTreePaths } from '../../git/snapshot.js';
import { closeSandbox, openSandbox } from '../../git/worktree.js';
import { verify } from '../../verify/verify.js';
import type { OperationContext } from '../operation.js';
import { presentVerification } from '../change/present.js';
import { assertSnapshot, snapshotCommit, takeSnapshot } from '../workspace/snapshot.js';
import type { verifyInput } from './schema.js';
import { withWorkspace } from '../workspace/workspace.js';
import { configFor, verifySettings } from '../workspace/config.js';

export async function runVerifyOnly(input: z.infer<typeof verifyInput>, context: OperationContext): Promise<z.infer<typeof VerifyResponse>> {
  // The session lock covers only what needs it (finishing an interrupted apply, the snapshot, a sandbox of its own);
  // the checks run after it is released, so changes can land meanwhile.
  const { ws, snapshot, files, sandbox } = await withWorkspace(input, { lock: true }, async (ws) => {
    const snapshot = await takeSnapshot(ws);
    try {
      await assertSnapshot(ws, snapshot, input.snapshot);
      const files = (await listTreePaths(ws.repo, snapshot.tree)).filter((e) => e.type === 'blob' && e.mode !== '120000').map((e) => e.path);
      const sandbox = await openSandbox(ws.repo, ws.session.dir, await snapshotCommit(ws, snapshot), 'fresh');
      return { ws, snapshot, files, sandbox };
    } catch (error) {
      if (error instanceof TugError) error.snapshotId ??= snapshot.tree;
      throw error;
    }
  });
  try {
    const config = await configFor(ws.repo, { ...input, verify: input.mode }, ws.warnings);
    context.progress?.(`verifying (${config.verify})`);
    const verification = await verify({
      ...verifySettings(config),
      cwd: sandbox.path,
      changedFiles: files,
      sessionDir: ws.session.dir,
      workersDir: ws.session.paths.workers,
      signal: context.signal,
      onProgress: context.heartbeat,
    }).finally(() => closeSandbox(sandbox, false));
    if (verification.status === 'failed') {
      throw new TugError('VerificationFailed', 'the workspace does not pass verification', { details: { verification: presentVerification(verification) } });
    }
    return VerifyResponse.parse({
      status: 'ok',
      schema_version: SCHEMA_VERSION,
      snapshot_id: snapshot.tree,
      verification: presentVerification(verification),
      warnings: ws.warnings,
    });
  } catch (error) {
    if (error instanceof TugError) error.snapshotId ??= snapshot.tree;
    throw error;
  }
}
