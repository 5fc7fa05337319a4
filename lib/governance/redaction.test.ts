/**
 * Redaction at rest (issue 33), the pure part: the policy's `redaction` is strict (a misspelt class or
 * a regex that does not compile is refused naming it); each class is the guardrails' detector (a card
 * must pass Luhn, an IBAN mod-97); a pseudonymised value is the same token under the same key and a
 * different one under another; a subject's own ids are kept.
 */
import { describe, expect, it } from 'vitest';
import { PolicyFileError } from './errors';
import { parsePolicy } from './policy-file';
import { newPseudonymKey, sealPseudonymKey, unsealPseudonymKey } from './pseudonym-key';
import { RedactionSchema, Redactor } from './redaction';

const policyOf = (redaction: object) => parsePolicy(JSON.stringify({ schemaVersion: 1, approvalTtlSeconds: 60, tenants: { gannet: { redaction } }, tools: {} }), 'test-policy.json');
const all = RedactionSchema.parse({ classes: ['card', 'iban', 'email', 'phone', 'secret'], patterns: [{ name: 'order_ref', regex: 'ORD-\\d{6}' }] });

describe('the redaction policy', () => {
  it('refuses a misspelt class, a bad regex or a pattern named like a class, naming it', () => {
    expect(() => policyOf({ classes: ['cards'] })).toThrow(PolicyFileError);
    expect(() => policyOf({ classes: ['email', 'cards'] })).toThrow(/tenants\.gannet\.redaction\.classes\.1/);
    expect(() => policyOf({ classes: [], patterns: [{ name: 'ref', regex: '(unclosed' }] })).toThrow(/tenants\.gannet\.redaction\.patterns\.0\.regex: pattern 'ref': not a valid regular expression/);
    expect(() => policyOf({ patterns: [{ name: 'email', regex: 'x' }] })).toThrow(/patterns\.0\.name/);
    expect(() => policyOf({ classes: ['email'], pseudonymize: true })).toThrow(/pseudonymize/);
    expect(policyOf({ classes: ['email'] }).document.tenants.gannet!.redaction).toEqual({ classes: ['email'], patterns: [], pseudonymise: false });
  });
});

describe('the redactor', () => {
  it('takes out each class with its detector, and records the class and where', () => {
    const r = new Redactor(all, null);
    const text = 'Card 4111 1111 1111 1111, not 4111 1111 1111 1112; IBAN GB82 WEST 1234 5698 7654 32; mail ada@example.org; call +44 20 7946 0958; key AKIAIOSFODNN7EXAMPLE; order ORD-123456.';
    const out = r.text(text, 'query');
    expect(out).toBe('Card [REDACTED:card], not 4111 1111 1111 1112; IBAN [REDACTED:iban]; mail [REDACTED:email]; call [REDACTED:phone]; key [REDACTED:secret]; order [REDACTED:order_ref].');
    expect(r.json({ result: { who: 'ada@example.org', n: 3 } }, 'tool result at step 2')).toEqual({ result: { who: '[REDACTED:email]', n: 3 } });
    expect(r.redactions()).toEqual(
      expect.arrayContaining([
        { class: 'card', count: 1, where: 'query' },
        { class: 'secret', count: 1, where: 'query' },
        { class: 'order_ref', count: 1, where: 'query' },
        { class: 'email', count: 1, where: 'tool result at step 2' },
      ]),
    );
  });

  it('leaves classes the tenant did not name, and the subject\'s own ids', () => {
    const r = new Redactor(RedactionSchema.parse({ classes: ['card'] }), null, ['ada@example.org']);
    expect(r.text('ada@example.org paid with 4111111111111111', 'query')).toBe('ada@example.org paid with [REDACTED:card]');
    expect(r.text('ada@example.org', 'run config')).toBe('ada@example.org');
  });

  it('pseudonymises: the same value under the same key is the same token, under another key another', () => {
    const policy = RedactionSchema.parse({ classes: ['email'], pseudonymise: true });
    const key = newPseudonymKey();
    const a = new Redactor(policy, key).text('from ada@example.org', 'query');
    const b = new Redactor(policy, key).text('reply to ada@example.org please', 'answer');
    const other = new Redactor(policy, newPseudonymKey()).text('from ada@example.org', 'query');
    const token = /⟨email:[0-9a-f]{12}⟩/.exec(a)![0];
    expect(a).toBe(`from ${token}`);
    expect(b).toBe(`reply to ${token} please`);
    expect(other).not.toContain(token);
    expect(new Redactor(policy, key).text('from bob@example.org', 'query')).not.toContain(token);
  });

  it('counts values redacted upstream (an imported span\'s raw row) where they stand', () => {
    const r = new Redactor(all, null);
    expect(r.text('paid [REDACTED:iban] and ⟨email:0123456789ab⟩', 'span at step 2')).toBe('paid [REDACTED:iban] and ⟨email:0123456789ab⟩');
    expect(r.redactions()).toEqual([
      { class: 'iban', count: 1, where: 'span at step 2' },
      { class: 'email', count: 1, where: 'span at step 2' },
    ]);
  });

  it('seals a pseudonym key so only the evidence key opens it', () => {
    const key = newPseudonymKey();
    const sealed = sealPseudonymKey(key, Buffer.from('root-key-a-0123456789abcdef0123456789'));
    expect(sealed).not.toContain(key.toString('base64url'));
    expect(unsealPseudonymKey(sealed, Buffer.from('root-key-a-0123456789abcdef0123456789')).equals(key)).toBe(true);
    expect(() => unsealPseudonymKey(sealed, Buffer.from('root-key-b-0123456789abcdef0123456789'))).toThrow(/cannot be opened/);
  });
});
