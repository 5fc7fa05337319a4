import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countUsers, ensureAuthSecret, ensureEvidenceKey, firstAdminHint } from './auth-setup.mjs';
import { migrate } from './db-migrate.mjs';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-setup-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('ensureAuthSecret', () => {
  it('generates a secret once into a private file and reuses it on the next start', () => {
    const file = path.join(tmp(), '.data', 'auth-secret');
    const first = ensureAuthSecret({}, file);
    const second = ensureAuthSecret({}, file);
    expect(first.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(second.secret).toBe(first.secret);
    expect(first.source).toMatch(/\(generated\)$/);
    expect(second.source).not.toMatch(/generated/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('prefers BETTER_AUTH_SECRET and refuses one shorter than 32 characters', () => {
    const file = path.join(tmp(), 'auth-secret');
    expect(ensureAuthSecret({ BETTER_AUTH_SECRET: 'x'.repeat(40) }, file)).toEqual({ secret: 'x'.repeat(40), source: 'BETTER_AUTH_SECRET' });
    expect(fs.existsSync(file)).toBe(false);
    expect(() => ensureAuthSecret({ BETTER_AUTH_SECRET: 'short' }, file)).toThrow(/at least 32 characters/);
  });
});

describe('first admin hint', () => {
  it('counts no users in a fresh database and prints the admin command and the sign-in URL', async () => {
    const file = path.join(tmp(), 'fresh.db');
    await migrate({ url: `file:${file}` });
    expect(await countUsers({ provider: 'sqlite', file })).toBe(0);
    const hint = firstAdminHint('http://127.0.0.1:3000');
    expect(hint).toContain('npm run stockroom -- admin create --email you@example.com');
    expect(hint).toContain('--role admin,operator,reviewer --tenant kittiwake');
    expect(hint).toContain('http://127.0.0.1:3000/sign-in');
  });
});

describe('ensureEvidenceKey', () => {
  it('generates the evidence key once beside the auth secret (mode 0600) and reuses it; a short variable is refused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stockroom-evidence-key-'));
    try {
      const file = path.join(dir, 'evidence-key');
      const first = ensureEvidenceKey({}, file);
      expect(first.key).toHaveLength(64);
      expect(ensureEvidenceKey({}, file).key).toBe(first.key);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(ensureEvidenceKey({ STOCKROOM_EVIDENCE_KEY: 'k'.repeat(40) }, file)).toEqual({ key: 'k'.repeat(40), source: 'STOCKROOM_EVIDENCE_KEY' });
      expect(() => ensureEvidenceKey({ STOCKROOM_EVIDENCE_KEY: 'short' }, file)).toThrow(/STOCKROOM_EVIDENCE_KEY must have at least 32/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
