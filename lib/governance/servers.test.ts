/**
 * Issue 11 §1, governance across servers: the capability registry pins each tool by server id, name
 * and schema digest; a policy rule can name a server; a server's annotations may suggest a default
 * (non-read-only tools need approval) but the policy file decides; a tool whose schema changed from
 * its pin is refused naming the tool and the server. Every pin here is taken from a real MCP server
 * process: @modelcontextprotocol/server-everything and the project's own stdio server.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../harness/json';
import type { ToolSpec } from '../harness/types';
import { createExecutor } from '../mcp/client/create-executor';
import type { McpToolExecutor } from '../mcp/client/mcp-executor';
import { REPO_ROOT } from '../mcp/shared/paths';
import { hasOwn, OWN_DATASET_DIR } from '../mcp/test-support';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { GovernedCallPolicy } from './call-policy';
import { checkDrift, pinCapabilities, type CapabilityPin } from './capability-registry';
import { PolicyFileError } from './errors';
import { parsePolicy, type LoadedPolicy } from './policy-file';
import { OPERATOR_SCOPES } from './principal';
import { toolSourceOf } from './tool-source';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const EVERYTHING_COMMAND = `"${process.execPath}" "${EVERYTHING}" stdio`;
const alice = { subject: 'alice', tenant: 'kittiwake', scopes: [...OPERATOR_SCOPES] };

/** A policy for two servers: everything's unlisted tools take their default from its annotations. */
const policy: LoadedPolicy = parsePolicy(
  JSON.stringify({
    schemaVersion: 1,
    approvalTtlSeconds: 3600,
    servers: { everything: { unlistedTools: 'annotations' } },
    tools: {
      // Listed for everything only: the policy, not the annotation (not read-only), decides.
      'everything/toggle-subscriber-updates': { version: '3', risk: 'write', scope: 'inventory:write' },
      // A read-only-hinted tool the policy still refuses, by a rule that names the server.
      'everything/get-env': { version: '1', risk: 'read', scope: 'inventory:read', rules: [{ id: 'no-env-from-everything', server: 'everything', effect: 'deny', message: 'no environment dumps' }] },
      create_restock_request: {
        version: '1',
        risk: 'write',
        scope: 'inventory:write',
        rules: [
          { id: 'everything-may-not-restock', server: 'everything', effect: 'deny', message: 'only the stockroom server restocks' },
          { id: 'big-restock', when: { argument: 'quantity', gt: 500 }, effect: 'approval_required', message: 'needs a manager' },
        ],
      },
    },
  }),
  'servers-policy',
);

async function pinFrom(executor: McpToolExecutor): Promise<CapabilityPin> {
  return pinCapabilities(await executor.listSpecs(), policy, '2026-01-01T00:00:00Z', await toolSourceOf(executor));
}

function decide(pin: CapabilityPin, server: string, spec: ToolSpec, args: JsonValue) {
  const governed = new GovernedCallPolicy({ policy, pin, principal: alice, runTenant: 'kittiwake', server });
  return governed.evaluate({ toolUseId: 't1', name: spec.name, arguments: args }, spec).decision;
}

const specNamed = async (executor: McpToolExecutor, name: string): Promise<ToolSpec> => {
  const spec = (await executor.listSpecs()).find((s) => s.name === name);
  if (!spec) throw new Error(`the server lists no ${name}`);
  return spec;
};

describe.skipIf(!hasOwn)('governance across tool servers (real MCP processes)', () => {
  const dataset = hasOwn ? loadDataset(OWN_DATASET_DIR) : (undefined as never);
  let everything: McpToolExecutor;
  let stockroom: McpToolExecutor;

  beforeAll(async () => {
    everything = (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [], mcpCommand: EVERYTHING_COMMAND, mcpServerId: 'everything' })) as McpToolExecutor;
    stockroom = (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: [] })) as McpToolExecutor;
  }, 60_000);
  afterAll(async () => {
    await everything?.close();
    await stockroom?.close();
  });

  it('pins each tool by server id, name, schema digest and the server’s hints', async () => {
    const pin = await pinFrom(everything);
    const echo = pin.tools.find((t) => t.name === 'echo');
    expect(echo).toMatchObject({ server: 'everything', name: 'echo', version: 'unlisted', readOnlyHint: true });
    expect(echo?.schemaDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(pin.tools.find((t) => t.name === 'toggle-subscriber-updates')).toMatchObject({ server: 'everything', version: '3', readOnlyHint: false });
    const own = await pinFrom(stockroom);
    expect(own.tools.find((t) => t.name === 'create_restock_request')).toMatchObject({ server: 'stockroom', readOnlyHint: false });
    // The same name on another server is not the pinned tool.
    const restock = await specNamed(stockroom, 'create_restock_request');
    expect(checkDrift(own, restock, 'everything')).toMatchObject({ ok: false, reason: 'unpinned' });
  });

  it('lets the annotations suggest the default for unlisted tools: read-only allowed, anything else needs approval', async () => {
    const pin = await pinFrom(everything);
    expect(decide(pin, 'everything', await specNamed(everything, 'echo'), { message: 'hi' })).toMatchObject({ decision: 'allow', rule: 'annotation-default:read' });
    const toggle = await specNamed(everything, 'toggle-simulated-logging');
    const decision = decide(pin, 'everything', toggle, {});
    expect(decision).toMatchObject({ decision: 'approval_required', rule: 'annotation-default:write', approval: { approverRole: 'reviewer', quorum: 1 } });
    expect(decision.decision === 'approval_required' && decision.message).toContain('toggle-simulated-logging (server everything)');
  });

  it('lets the policy file overrule the annotations, and a rule name the server it applies to', async () => {
    const pin = await pinFrom(everything);
    // Not read-only by its annotations, but listed as a plain write without rules: allowed.
    expect(decide(pin, 'everything', await specNamed(everything, 'toggle-subscriber-updates'), {})).toMatchObject({ decision: 'allow', rule: 'default-allow:write' });
    // Read-only by its annotations, but a rule naming the server denies it.
    expect(decide(pin, 'everything', await specNamed(everything, 'get-env'), {})).toMatchObject({ decision: 'deny', rule: 'no-env-from-everything' });
    // The restock rule naming everything does not apply to the stockroom server's restock.
    const own = await pinFrom(stockroom);
    const restock = await specNamed(stockroom, 'create_restock_request');
    expect(decide(own, 'stockroom', restock, { sku: 'SKU-2001', quantity: 5 })).toMatchObject({ decision: 'allow', rule: 'default-allow:write' });
    expect(decide(own, 'stockroom', restock, { sku: 'SKU-2001', quantity: 900 })).toMatchObject({ decision: 'approval_required', rule: 'big-restock' });
    // A server without annotation defaults: its unlisted tools are unknown, named with the server.
    const search = await specNamed(stockroom, 'search_products');
    const unknown = decide(own, 'stockroom', search, { query: 'x' });
    expect(unknown).toMatchObject({ decision: 'deny', rule: 'unknown-tool' });
    expect(unknown.decision === 'deny' && unknown.message).toBe('tool search_products (server stockroom) is not in the policy');
  });

  it('refuses a tool whose schema changed from its pin, naming the tool and the server', async () => {
    const pin = await pinFrom(stockroom);
    // The same server restarted with search_products' broad description: its digest moves.
    const changed = (await createExecutor({ transport: 'mcp-stdio', dataset, weaknesses: ['ambiguous_tool_desc'] })) as McpToolExecutor;
    try {
      const search = await specNamed(changed, 'search_products');
      expect(checkDrift(pin, await specNamed(stockroom, 'search_products'), 'stockroom')).toMatchObject({ ok: true });
      const decision = decide(pin, 'stockroom', search, { query: 'bolts' });
      expect(decision).toMatchObject({ decision: 'deny', rule: 'schema-drift' });
      expect(decision.decision === 'deny' && decision.message).toMatch(/^the schema of search_products on server stockroom changed after the run started \(pinned [0-9a-f]{12}, now [0-9a-f]{12}\)$/);
    } finally {
      await changed.close();
    }
  }, 60_000);
});

describe('the policy file’s server settings', () => {
  const base = { schemaVersion: 1, approvalTtlSeconds: 60, tools: {} };
  it('refuses a rule naming a malformed server id, naming the field', () => {
    const text = JSON.stringify({ ...base, tools: { echo: { version: '1', risk: 'read', scope: 's', rules: [{ id: 'r', server: 'Not A Server', effect: 'deny', message: 'm' }] } } });
    expect(() => parsePolicy(text, 'p')).toThrow(PolicyFileError);
    expect(() => parsePolicy(text, 'p')).toThrow(/tools\.echo\.rules\.0\.server/);
  });
  it('refuses an unknown unlisted-tools setting, naming the server', () => {
    expect(() => parsePolicy(JSON.stringify({ ...base, servers: { everything: { unlistedTools: 'allow' } } }), 'p')).toThrow(/servers\.everything\.unlistedTools/);
  });
});
