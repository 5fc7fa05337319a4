import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunSettingsSchema } from '../schemas/run-settings';
import { configOf, guardrailsFor } from './settings';

const saved = process.env.STOCKROOM_POLICY_FILE;
afterEach(() => {
  if (saved === undefined) delete process.env.STOCKROOM_POLICY_FILE;
  else process.env.STOCKROOM_POLICY_FILE = saved;
});

function policyWith(tenants: unknown): void {
  const doc = JSON.parse(fs.readFileSync(path.resolve('config/policy.json'), 'utf8')) as Record<string, unknown>;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'policy-')), 'policy.json');
  fs.writeFileSync(file, JSON.stringify({ ...doc, tenants }));
  process.env.STOCKROOM_POLICY_FILE = file;
}

const settings = { guards: [], payloadWrappers: [], transport: 'local' as const };

describe('guardrails through the run service', () => {
  it('a run that names none gets its tenant’s default from the policy file; other tenants get none', () => {
    policyWith({ acme: { governance: 'optional', guardrails: { require_tools: ['get_stock_level'] } } });
    expect(configOf(settings, [], 'acme').guardrails?.require_tools).toEqual(['get_stock_level']);
    expect(configOf(settings, [], 'kittiwake').guardrails).toBeUndefined();
  });
  it('a run’s own guardrails win over the tenant default, and are what its configuration records', () => {
    policyWith({ acme: { guardrails: { require_tools: ['get_stock_level'] } } });
    const own = RunSettingsSchema.parse({ datasetId: 'stockroom-v1', guardrails: '{"forbid_tools":["create_restock_request"]}' }).guardrails;
    const config = configOf({ ...settings, guardrails: own }, [], 'acme');
    expect(config.guardrails).toMatchObject({ forbid_tools: ['create_restock_request'], require_tools: [] });
  });
  it('no policy file: no default', () => {
    process.env.STOCKROOM_POLICY_FILE = path.join(os.tmpdir(), 'no-such-policy.json');
    expect(guardrailsFor(undefined, 'acme')).toBeUndefined();
  });
  it('a bad tenant default is refused with the policy file’s error, not read as none', () => {
    policyWith({ acme: { guardrails: { on_violation: 'shrug' } } });
    expect(() => guardrailsFor(undefined, 'acme')).toThrow(/on_violation/);
  });
  it('the run form’s field: empty is none, bad JSON and bad values are refused naming the field', () => {
    expect(RunSettingsSchema.parse({ datasetId: 'stockroom-v1', guardrails: '  ' }).guardrails).toBeUndefined();
    const bad = RunSettingsSchema.safeParse({ datasetId: 'stockroom-v1', guardrails: '{"max_retries": 99}' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['guardrails']);
    expect(bad.error?.issues[0]?.message).toContain('guardrails.max_retries');
    expect(RunSettingsSchema.safeParse({ datasetId: 'stockroom-v1', guardrails: '{oops' }).error?.issues[0]?.message).toContain('not valid JSON');
  });
});
