import { describe, expect, it } from 'vitest';
import { evidenceBody, eventHash, GENESIS_HASH, MemoryEvidenceSink } from './evidence';
import { TEST_EVIDENCE_KEY } from './evidence-signing';
import { verifyEvidence } from './evidence-verify';
import { redact, REDACTED } from './redact';

async function sinkWith(n: number, runs: (string | null)[] = [null]) {
  const sink = new MemoryEvidenceSink();
  for (let i = 0; i < n; i += 1) await sink.append(evidenceBody({ kind: 'policy_decision', at: `t${i}`, runId: runs[i % runs.length] ?? null, decision: 'allow', rule: `r${i}` }));
  return sink;
}
const stored = (s: ReturnType<MemoryEvidenceSink['snapshot']>) => ({ ...s, events: s.events.map((e) => ({ ...e, runIdColumn: e.body.runId })) });

describe('the evidence chains', () => {
  it('links each event to the one before it in its run\'s chain and verifies with the key', async () => {
    const sink = await sinkWith(6, ['run-a', 'run-b']);
    const a = sink.events.filter((e) => e.chain === 'run-a');
    expect(a.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(a[0]!.prevHash).toBe(GENESIS_HASH);
    expect(a[1]!.prevHash).toBe(a[0]!.hash);
    expect(verifyEvidence(TEST_EVIDENCE_KEY, stored(sink.snapshot()))).toMatchObject({ ok: true, events: 6, chains: 2 });
  });

  it('detects an edited event, a removed event and a relinked forgery', async () => {
    const s = stored((await sinkWith(4)).snapshot());
    const edited = s.events.map((e) => (e.seq === 2 ? { ...e, body: { ...e.body, decision: 'deny' } } : e));
    expect(verifyEvidence(TEST_EVIDENCE_KEY, { ...s, events: edited })).toMatchObject({ ok: false, seq: 2, reason: expect.stringContaining('edited') });
    expect(verifyEvidence(TEST_EVIDENCE_KEY, { ...s, events: s.events.filter((e) => e.seq !== 3) })).toMatchObject({ ok: false, seq: 3 });
    const forged = s.events.map((e) => (e.seq === 4 ? { ...e, prevHash: 'f'.repeat(64) } : e));
    expect(verifyEvidence(TEST_EVIDENCE_KEY, { ...s, events: forged })).toMatchObject({ ok: false, seq: 4, reason: expect.stringContaining('link') });
  });

  it('refuses a chain whose hashes were all recomputed after a forgery, naming the forged event', async () => {
    const s = stored((await sinkWith(4)).snapshot());
    let prev = GENESIS_HASH;
    const rehashed = s.events.map((e) => {
      const body = e.seq === 2 ? { ...e.body, decision: 'deny' } : e.body;
      const hash = eventHash(e.seq, prev, body);
      const out = { ...e, body, prevHash: prev, hash };
      prev = hash;
      return out;
    });
    expect(verifyEvidence(TEST_EVIDENCE_KEY, { ...s, events: rehashed })).toMatchObject({ ok: false, seq: 2, reason: expect.stringContaining('not signed') });
  });

  it('detects the last events of a chain deleted, and a sealed chain deleted with its head', async () => {
    const sink = await sinkWith(6, ['run-a', 'run-b']);
    sink.seal();
    const s = stored(sink.snapshot());
    const truncated = s.events.filter((e) => !(e.chain === 'run-b' && e.seq === 3));
    expect(verifyEvidence(TEST_EVIDENCE_KEY, { ...s, events: truncated })).toMatchObject({ ok: false, chain: 'run-b', seq: 3, reason: expect.stringContaining('deleted') });
    const gone = { ...s, events: s.events.filter((e) => e.chain !== 'run-a'), heads: s.heads.filter((h) => h.chain !== 'run-a') };
    expect(verifyEvidence(TEST_EVIDENCE_KEY, gone)).toMatchObject({ ok: false, reason: expect.stringContaining('deleted') });
  });

  it('detects an edited run id column, and refuses verification under another key', async () => {
    const s = stored((await sinkWith(2, ['run-a'])).snapshot());
    const moved = s.events.map((e) => (e.seq === 1 ? { ...e, runIdColumn: 'run-z' } : e));
    expect(verifyEvidence(TEST_EVIDENCE_KEY, { ...s, events: moved })).toMatchObject({ ok: false, chain: 'run-a', seq: 1, reason: expect.stringContaining('run id column') });
    expect(verifyEvidence(Buffer.from('another key of at least thirty-two characters'), s)).toMatchObject({ ok: false, reason: expect.stringContaining('not signed') });
  });
});

describe('redaction', () => {
  it('masks secret-keyed values at any depth and lists their paths', () => {
    const r = redact({ sku: 'SKU-1', auth: { apiKey: 'k', nested: [{ password: 'p' }] } });
    expect(r.value).toEqual({ sku: 'SKU-1', auth: { apiKey: REDACTED, nested: [{ password: REDACTED }] } });
    expect(r.redactions).toEqual(['$.auth.apiKey', '$.auth.nested[0].password']);
  });
});
