import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../harness/types';
import { GovernedCallPolicy } from './call-policy';
import { driftedTools, pinCapabilities, schemaDigest } from './capability-registry';
import { loadPolicyFile } from './policy-file';
import { OPERATOR_SCOPES } from './principal';

const policy = loadPolicyFile(path.resolve('config/policy.json'));
const restock: ToolSpec = {
  name: 'create_restock_request',
  description: 'Create a restock request',
  inputSchema: { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer' } }, required: ['sku', 'quantity'] },
};
const pin = pinCapabilities([restock], policy, '2026-01-01T00:00:00Z');
const governed = () => new GovernedCallPolicy({ policy, pin, principal: { subject: 'alice', tenant: 'kittiwake', scopes: [...OPERATOR_SCOPES] }, runTenant: 'kittiwake' });
const call = (quantity: number) => ({ toolUseId: 't1', name: 'create_restock_request', arguments: { sku: 'SKU-2001', quantity } });

describe('the governed call policy', () => {
  it('pins each tool with its policy version and schema digest', () => {
    expect(pin.tools).toEqual([{ name: 'create_restock_request', version: '1', schemaDigest: schemaDigest(restock) }]);
  });

  it('asks for approval above the limit and records the decision with its proposal', () => {
    const p = governed();
    expect(p.decide(call(900), restock, { step: 1 })).toMatchObject({ decision: 'approval_required', rule: 'restock-above-auto-approve', policyVersion: policy.version });
    expect(p.drain()).toMatchObject([{ step: 1, callId: 't1', tool: 'create_restock_request', toolVersion: '1', schemaDigest: schemaDigest(restock) }]);
    expect(p.decisions).toHaveLength(0);
  });

  it('refuses a tool whose schema changed after the pin, and one that was not pinned', () => {
    const changed: ToolSpec = { ...restock, inputSchema: { ...restock.inputSchema, additionalProperties: true } };
    expect(governed().decide(call(10), changed, { step: 1 })).toMatchObject({ decision: 'deny', rule: 'schema-drift' });
    expect(driftedTools(pin, [changed])).toEqual([{ name: restock.name, pinned: schemaDigest(restock), current: schemaDigest(changed) }]);
    const other: ToolSpec = { ...restock, name: 'get_stock_level' };
    expect(governed().decide({ ...call(1), name: 'get_stock_level' }, other, { step: 1 })).toMatchObject({ decision: 'deny', rule: 'unpinned-tool' });
  });
});
