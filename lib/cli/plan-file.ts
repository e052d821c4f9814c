// Reads `--plan FILE` (or - for stdin): JSON {"steps": [...]}; the steps themselves are checked by the plan operation.
import { TugError } from '../core/errors.js';
import { readInputText } from './input-file.js';

export function readPlanFile(file: string, cwd: string): unknown {
  const text = readInputText(file, cwd, 'plan');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw bad(file, `plan ${file} is not valid JSON: ${(error as Error).message}`, 'invalid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('steps' in parsed)) {
    throw bad(file, `plan ${file} must be a JSON object {"steps": [{"operation": "rename-symbol", ...}, ...]}`, 'no steps');
  }
  const extra = Object.keys(parsed).filter((key) => key !== 'steps');
  if (extra.length > 0) throw bad(file, `plan ${file} has ${extra.map((k) => JSON.stringify(k)).join(', ')} beside "steps"; a plan file holds only its steps (the flags say how it runs)`, 'unknown key');
  return (parsed as { steps: unknown }).steps;
}

function bad(file: string, message: string, reason: string): TugError {
  return new TugError('InvalidArgument', message, { details: { argument: 'plan', path: file, reason } });
}
