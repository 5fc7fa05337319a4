/**
 * Issue 24 §5: servers that change while a run runs, against a real third-party server process.
 * Observed before: notifications/tools/list_changed was ignored during a run, so the model still
 * saw the old list and a call to the new tool got unknown_tool. Now the list is asked again; under
 * a policy, a pinned tool whose schema changed is refused as drift. Every call carries a
 * progressToken and the tool's progress reaches the run's observer; the run's wall-clock deadline
 * cancels a call still running (the server is sent notifications/cancelled and stops).
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { scriptedModel } from '../harness/testing/scripted-model';
import type { ToolRecord } from '../harness/types';
import { GovernedCallPolicy } from '../governance/call-policy';
import { pinCapabilities } from '../governance/capability-registry';
import { parsePolicy } from '../governance/policy-file';
import { OPERATOR_SCOPES } from '../governance/principal';
import { toolSourceOf } from '../governance/tool-source';
import { createStockroomAgent } from '../stockroom/agent';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { createExecutor } from './client/create-executor';
import type { McpToolExecutor } from './client/mcp-executor';
import { strangerCommand } from './testing/stranger-process';
import { hasOwn, OWN_DATASET_DIR } from './test-support';

const records = (trajectory: readonly { kind: string }[]) => trajectory.filter((s): s is ToolRecord => s.kind === 'tool_call');

describe.skipIf(!hasOwn)('a server that changes while a run runs', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);
  const open = async () => (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: strangerCommand(), mcpServerId: 'stranger' })) as McpToolExecutor;

  it('shows the model a tool added mid-run, and the call reaches it (observed: unknown_tool)', async () => {
    const executor = await open();
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio' }), executor });
    try {
      const run = await agent.run('grow the server', null, { model: scriptedModel([{ calls: [['grow', {}]] }, { calls: [['late_tool', { note: 'hello' }]] }, { text: 'done' }]) });
      const late = records(run.trajectory).find((r) => r.name === 'late_tool');
      expect(late?.errorCode).toBeNull();
      expect(late?.resultContent).toBe('late tool got hello');
      expect(run.toolSpecs.map((s) => s.name)).toContain('late_tool');
      // The model's last call was offered the new tool.
      expect(run.terminationReason).toBe('COMPLETED');
    } finally {
      await agent.close();
    }
  }, 60_000);

  it('refuses, under a policy, a pinned tool whose schema changed mid-run', async () => {
    const executor = await open();
    const policy = parsePolicy(
      JSON.stringify({
        schemaVersion: 1,
        approvalTtlSeconds: 3600,
        servers: { stranger: { unlistedTools: 'annotations' } },
        tools: { 'stranger/grow': { version: '1', risk: 'read', scope: 'inventory:read' } },
      }),
      'live-policy',
    );
    const pin = pinCapabilities(await executor.listSpecs(), policy, new Date().toISOString(), await toolSourceOf(executor));
    const governed = new GovernedCallPolicy({ policy, pin, principal: { subject: 'alice', tenant: 'kittiwake', scopes: [...OPERATOR_SCOPES] }, runTenant: 'kittiwake', server: 'stranger' });
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio' }), executor, policy: governed });
    try {
      const run = await agent.run('count, grow, count', null, {
        model: scriptedModel([{ calls: [['wipe_count', {}]] }, { calls: [['grow', {}]] }, { calls: [['wipe_count', {}]] }, { text: 'ok' }]),
      });
      const [first, grow, second] = records(run.trajectory);
      expect(first?.policy?.decision).toBe('allow');
      expect(grow?.errorCode).toBeNull();
      // The same tool, its schema changed by the server during the run: refused as drift from the pin.
      expect(second?.errorCode).toBe('denied_by_policy');
      expect(second?.policy?.rule).toBe('schema-drift');
    } finally {
      await agent.close();
    }
  }, 60_000);

  it('sends a progressToken, hands the progress on, and cancels the call at the wall-clock deadline', async () => {
    const executor = await open();
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ transport: 'mcp-stdio', wallClockTimeoutS: 2 }), executor });
    const progress: { name: string; progress: number; total?: number }[] = [];
    try {
      const run = await agent.run('be slow', null, {
        model: scriptedModel([{ calls: [['slow', { steps: 100 }]] }, { text: 'never' }]),
        onToolProgress: (p) => progress.push(p),
      });
      expect(progress.length).toBeGreaterThan(0);
      expect(progress[0]).toMatchObject({ name: 'slow', progress: 1, total: 100 });
      const slow = records(run.trajectory)[0];
      expect(slow?.errorCode).toBe('cancelled');
      expect(run.terminationReason).toBe('TIMEOUT');
      // The server was told and stopped the call (it counts the cancellations it saw).
      await expect.poll(async () => ((await executor.call('wipe_count', {})).content as { cancelled: number }).cancelled, { timeout: 5_000 }).toBe(1);
    } finally {
      await agent.close();
    }
  }, 60_000);
});
