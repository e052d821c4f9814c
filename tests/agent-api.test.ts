// docs/AGENT_API.md is generated from the registry; this fails when the document and the tools disagree.
import test from 'ava';
import { expectGolden } from './helpers/golden.js';
import { renderAgentApi } from './helpers/agent-api.js';

test('docs/AGENT_API.md matches the registry', async (t) => {
  await expectGolden(t, '../docs/AGENT_API.md', renderAgentApi());
});
