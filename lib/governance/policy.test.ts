import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './canonical-json';
import { PolicyFileError } from './errors';
import { evaluatePolicy } from './policy-engine';
import { governanceMandatory, loadPolicyFile, parsePolicy } from './policy-file';
import type { Principal } from './principal';
import { OPERATOR_SCOPES } from './principal';
import fs from 'node:fs';

const file = path.resolve('config/policy.json');
const policy = loadPolicyFile(file);
const alice: Principal = { subject: 'alice', tenant: 'kittiwake', scopes: [...OPERATOR_SCOPES] };
const ask = (tool: string, args: object, principal = alice, runTenant = 'kittiwake') =>
  evaluatePolicy(policy, { tool, arguments: args as never, principal, runTenant });

describe('the repository policy file', () => {
  it('is versioned by the SHA-256 of its exact bytes', () => {
    expect(policy.version).toBe(sha256Hex(fs.readFileSync(file)));
    const edited = parsePolicy(fs.readFileSync(file, 'utf8') + ' ');
    expect(edited.version).not.toBe(policy.version);
  });

  it('allows reads and small restocks, naming the rule and the version', () => {
    expect(ask('get_stock_level', { sku: 'SKU-2001' })).toEqual({ decision: 'allow', rule: 'default-allow:read', policyVersion: policy.version });
    expect(ask('create_restock_request', { sku: 'SKU-2001', quantity: 500 })).toMatchObject({ decision: 'allow', rule: 'default-allow:write' });
  });

  it('requires a reviewer for a restock above the auto-approve limit', () => {
    expect(ask('create_restock_request', { sku: 'SKU-2001', quantity: 501 })).toMatchObject({
      decision: 'approval_required',
      rule: 'restock-above-auto-approve',
      approval: { approverRole: 'reviewer', quorum: 1, ttlSeconds: 86400 },
    });
  });

  it('denies a write to another tenant, an unknown tool, and a principal without the scope', () => {
    expect(ask('create_restock_request', { sku: 'SKU-2001', quantity: 20 }, alice, 'other-depot')).toMatchObject({ decision: 'deny', rule: 'write-to-other-tenant' });
    expect(ask('delete_everything', {})).toMatchObject({ decision: 'deny', rule: 'unknown-tool' });
    expect(ask('get_order_status', { order_id: 'ORD-3001' }, { ...alice, scopes: ['inventory:read'] })).toMatchObject({ decision: 'deny', rule: 'missing-scope' });
  });

  it('refuses a malformed policy with the path of the problem', () => {
    expect(() => parsePolicy('{"schemaVersion":1,"approvalTtlSeconds":10,"tools":{"x":{"version":"1","risk":"delete","scope":"s"}}}', 'p.json')).toThrow(
      /p\.json: tools\.x\.risk/,
    );
    expect(() => parsePolicy('{nope', 'p.json')).toThrow(PolicyFileError);
  });

  it('keeps governance optional for the bundled tenant, so the weakness demos run without the policy', () => {
    expect(governanceMandatory(policy.document, 'kittiwake')).toBe(false);
  });

  it('makes governance mandatory per tenant, and refuses an unknown setting naming the field', () => {
    const base = { schemaVersion: 1, approvalTtlSeconds: 10, tools: {} };
    const mandatory = parsePolicy(JSON.stringify({ ...base, tenants: { puffin: { governance: 'mandatory' } } }));
    expect(governanceMandatory(mandatory.document, 'puffin')).toBe(true);
    expect(governanceMandatory(mandatory.document, 'kittiwake')).toBe(false);
    expect(() => parsePolicy(JSON.stringify({ ...base, tenants: { puffin: { governance: 'always' } } }), 'p.json')).toThrow(/p\.json: tenants\.puffin\.governance/);
    expect(() => parsePolicy(JSON.stringify({ ...base, tenants: { puffin: { governance: 'mandatory', extra: 1 } } }), 'p.json')).toThrow(/p\.json: tenants\.puffin/);
  });
});
