/**
 * Public-key evidence (issue 33): Ed25519 signatures an auditor verifies with the public key alone
 * and cannot produce; HMAC-signed evidence keeps verifying with its secret; a rotated key leaves
 * older chains verifiable; a bundle of one run's chain verifies without any secret.
 */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evidenceBody, eventHash, MemoryEvidenceSink, type EvidenceEvent } from './evidence';
import { evidenceBundle, verifyBundle } from './evidence-bundle';
import { loadSigningKeys, parsePublicKeys, publicKeysPem, rotateSigningKey } from './evidence-public-key';
import { publicKeyring, signHead, signingKeyring, TEST_EVIDENCE_KEY } from './evidence-signing';
import { verifyEvidence } from './evidence-verify';

const stored = (sink: MemoryEvidenceSink) => {
  const s = sink.snapshot();
  return { ...s, events: s.events.map((e) => ({ ...e, runIdColumn: e.body.runId })) };
};

async function fill(sink: MemoryEvidenceSink, runs: readonly string[]) {
  for (const runId of runs) for (const kind of ['run_started', 'policy_decision', 'run_finished'] as const) await sink.append(evidenceBody({ kind, at: '2026-01-01T00:00:00Z', runId, decision: 'allow' }));
  sink.seal();
}

describe('Ed25519 evidence', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const auditor = publicKeyring([createPublicKey(privateKey)]);

  it('verifies with the public key alone, and the public key cannot sign', async () => {
    const sink = new MemoryEvidenceSink(signingKeyring(privateKey));
    await fill(sink, ['r1', 'r2']);
    expect(sink.events[0]!.signature).toMatch(/^ed25519:[0-9a-f]{16}:/);
    expect(verifyEvidence(auditor, stored(sink))).toMatchObject({ ok: true, events: 6, chains: 2 });
    expect(() => signHead(auditor, { chain: 'r1', anchorSeq: 1, seq: 9, hash: 'x' })).toThrow(/public keys only/);
  });

  it('names the forged event when hashes were recomputed, and an anchor or head signed by another key', async () => {
    const sink = new MemoryEvidenceSink(signingKeyring(privateKey));
    await fill(sink, ['r1']);
    const s = stored(sink);
    // Recompute every hash after a forged body: the signatures no longer match.
    let prev = s.events[0]!.prevHash;
    const forged = s.events.map((e) => {
      const body = e.seq === 2 ? { ...e.body, decision: 'deny' } : e.body;
      const hash = eventHash(e.seq, prev, body);
      const out = { ...e, body, prevHash: prev, hash };
      prev = hash;
      return out;
    });
    expect(verifyEvidence(auditor, { ...s, events: forged })).toMatchObject({ ok: false, seq: 2, reason: expect.stringMatching(/not signed by the evidence key/) });
    // The head re-signed by a key the auditor does not hold.
    const mallory = signingKeyring(generateKeyPairSync('ed25519').privateKey);
    const heads = s.heads.map((h) => signHead(mallory, h));
    expect(verifyEvidence(auditor, { ...s, heads })).toMatchObject({ ok: false, reason: expect.stringMatching(/signed by Ed25519 key [0-9a-f]{16}, which none of the public keys given is/) });
  });

  it('keeps HMAC-signed evidence verifying with its secret; with the public key alone it says the secret is needed', async () => {
    const legacy = new MemoryEvidenceSink(TEST_EVIDENCE_KEY);
    await fill(legacy, ['old']);
    expect(verifyEvidence(TEST_EVIDENCE_KEY, stored(legacy))).toMatchObject({ ok: true });
    expect(verifyEvidence(auditor, stored(legacy))).toMatchObject({ ok: false, reason: expect.stringMatching(/HMAC evidence key .*needs that secret/) });
    // The server's keyring (secret and public keys) verifies both what was signed before and after.
    const both = signingKeyring(privateKey, [], TEST_EVIDENCE_KEY as Buffer);
    const mixed = stored(legacy);
    const next = new MemoryEvidenceSink(both);
    await fill(next, ['new']);
    expect(verifyEvidence(both, mixed)).toMatchObject({ ok: true });
    expect(verifyEvidence(both, stored(next))).toMatchObject({ ok: true });
  });

  it('a rotated key leaves chains signed before the rotation verifiable with the retired public key', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-signing-'));
    try {
      const env = { STOCKROOM_EVIDENCE_SIGNING_KEY_FILE: path.join(dir, 'k.pem') };
      expect(loadSigningKeys({ env, create: false })).toBeNull();
      const first = loadSigningKeys({ env, create: true })!;
      expect(fs.statSync(env.STOCKROOM_EVIDENCE_SIGNING_KEY_FILE).mode & 0o777).toBe(0o600);
      const sink = new MemoryEvidenceSink(signingKeyring(first.privateKey));
      await sink.append(evidenceBody({ kind: 'run_started', at: 'x', runId: 'before' }));
      const rotated = rotateSigningKey({ env });
      expect(rotated.previous).not.toBe(rotated.current);
      const second = loadSigningKeys({ env, create: false })!;
      expect(second.retired).toHaveLength(1);
      // The same sink object keeps its chain; a new one signs with the new key.
      const later = new MemoryEvidenceSink(signingKeyring(second.privateKey, second.retired));
      await later.append(evidenceBody({ kind: 'run_started', at: 'x', runId: 'after' }));
      const pem = publicKeysPem(second);
      const auditorKeys = publicKeyring(parsePublicKeys(pem, 'public.pem'));
      expect(verifyEvidence(auditorKeys, stored(sink))).toMatchObject({ ok: true });
      expect(verifyEvidence(auditorKeys, stored(later))).toMatchObject({ ok: true });
      // Given only the new key, the older chain names the key it needs.
      const onlyNew = publicKeyring([createPublicKey(second.privateKey)]);
      expect(verifyEvidence(onlyNew, stored(sink))).toMatchObject({ ok: false, reason: expect.stringContaining(rotated.previous!) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a public key file that holds a private key, or no key, naming the file', () => {
    const pem = String(privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(() => parsePublicKeys(pem, 'given.pem')).toThrow(/given.pem holds a private key/);
    expect(() => parsePublicKeys('hello', 'empty.pem')).toThrow(/empty.pem holds no PUBLIC KEY block/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' });
    expect(() => parsePublicKeys(String(rsa), 'rsa.pem')).toThrow(/rsa.pem holds a rsa key; evidence keys are Ed25519/);
  });

  it('a bundle of one run verifies with the public key alone; an edited, truncated or foreign bundle does not', async () => {
    const sink = new MemoryEvidenceSink(signingKeyring(privateKey));
    await fill(sink, ['r1', 'r2']);
    const events = sink.events.filter((e) => e.chain === 'r1');
    const bundle = JSON.parse(JSON.stringify(evidenceBundle('r1', sink.heads.get('r1')!, events))) as ReturnType<typeof evidenceBundle>;
    expect(verifyBundle(bundle, auditor)).toMatchObject({ ok: true, events: 3 });
    const edited = structuredClone(bundle);
    edited.events[1]!.body.decision = 'deny';
    expect(verifyBundle(edited, auditor)).toMatchObject({ ok: false, seq: 2, reason: expect.stringMatching(/was edited/) });
    const truncated = { ...bundle, events: bundle.events.slice(0, 2) };
    expect(verifyBundle(truncated, auditor)).toMatchObject({ ok: false, reason: expect.stringMatching(/were deleted/) });
    const foreign = { ...bundle, events: [...bundle.events.slice(0, 2), sink.events.find((e: EvidenceEvent) => e.chain === 'r2' && e.seq === 3)!] };
    expect(verifyBundle(foreign, auditor)).toMatchObject({ ok: false, reason: expect.stringMatching(/belongs to chain r2/) });
    expect(verifyBundle({ format: 'zip' }, auditor)).toMatchObject({ ok: false, reason: expect.stringMatching(/not an evidence bundle: format/) });
  });
});
