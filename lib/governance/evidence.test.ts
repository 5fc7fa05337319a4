import { describe, expect, it } from 'vitest';
import { evidenceBody, GENESIS_HASH, MemoryEvidenceSink, verifyChain } from './evidence';
import { redact, REDACTED } from './redact';

async function chain(n: number) {
  const sink = new MemoryEvidenceSink();
  for (let i = 0; i < n; i += 1) await sink.append(evidenceBody({ kind: 'policy_decision', at: `t${i}`, decision: 'allow', rule: `r${i}` }));
  return sink.events;
}

describe('the evidence hash chain', () => {
  it('links each event to the one before it and verifies', async () => {
    const events = await chain(3);
    expect(events[0]!.prevHash).toBe(GENESIS_HASH);
    expect(events[1]!.prevHash).toBe(events[0]!.hash);
    expect(verifyChain(events)).toEqual({ ok: true, count: 3, head: events[2]!.hash });
  });

  it('detects an edited event, a removed event and a relinked forgery', async () => {
    const events = await chain(4);
    const edited = events.map((e) => (e.seq === 2 ? { ...e, body: { ...e.body, decision: 'deny' } } : e));
    expect(verifyChain(edited)).toMatchObject({ ok: false, seq: 2, reason: expect.stringContaining('edited') });
    expect(verifyChain(events.filter((e) => e.seq !== 3))).toMatchObject({ ok: false, seq: 3 });
    const forged = events.map((e) => (e.seq === 4 ? { ...e, prevHash: 'f'.repeat(64) } : e));
    expect(verifyChain(forged)).toMatchObject({ ok: false, seq: 4, reason: expect.stringContaining('link') });
  });
});

describe('redaction', () => {
  it('masks secret-keyed values at any depth and lists their paths', () => {
    const r = redact({ sku: 'SKU-1', auth: { apiKey: 'k', nested: [{ password: 'p' }] } });
    expect(r.value).toEqual({ sku: 'SKU-1', auth: { apiKey: REDACTED, nested: [{ password: REDACTED }] } });
    expect(r.redactions).toEqual(['$.auth.apiKey', '$.auth.nested[0].password']);
  });
});
