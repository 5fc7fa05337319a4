import { describe, expect, it } from 'vitest';
import { failingModel, scriptedModel } from '../testing/scripted-model';
import { parseGuardrails } from './config';
import { FakeGuardModel } from './fake-guard';
import { judgeAnswer, parseVerdict } from './llm-guard';

const guard = (on_error: 'block' | 'allow' = 'block') => parseGuardrails({ llm_guard: { policy: "Never promise a delivery date or say 'guaranteed'.", on_error } }).llm_guard!;

describe('the LLM guard', () => {
  it('reads a verdict in the schema (fenced JSON too)', () => {
    expect(parseVerdict('{"severity":"low","reason":"fine"}')).toEqual({ ok: true, verdict: { severity: 'low', reason: 'fine' } });
    expect(parseVerdict('```json\n{"severity":"high","reason":"promises a date"}\n```').ok).toBe(true);
  });
  it.each([
    ['not json at all', 'JSON'],
    ['{"severity":"catastrophic","reason":"x"}', 'severity'],
    ['{"severity":"high"}', 'reason'],
    ['{"severity":"none","reason":"ok","extra":1}', 'schema'],
  ])('treats %j as a failed judge', (text, says) => {
    const v = parseVerdict(text);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.error).toContain(says);
  });
  it('blocks on a malformed verdict with on_error block, never passing it', async () => {
    const out = await judgeAnswer(scriptedModel([{ text: 'Looks fine to me!' }]), guard('block'), 'It arrives Monday.');
    expect(out).toMatchObject({ ok: false, violated: true });
  });
  it('lets the answer through, recorded as failed, with on_error allow', async () => {
    const out = await judgeAnswer(scriptedModel([{ text: '{"verdict":"ok"}' }]), guard('allow'), 'It arrives Monday.');
    expect(out).toMatchObject({ ok: false, violated: false });
  });
  it('treats a judge call that fails as a failed judge', async () => {
    const out = await judgeAnswer(failingModel(), guard('block'), 'x');
    expect(out.ok).toBe(false);
    expect(out.violated).toBe(true);
  });
  it('counts severities at or above block_at as violations', async () => {
    const judge = scriptedModel([{ text: '{"severity":"medium","reason":"vague promise"}' }]);
    expect(await judgeAnswer(judge, guard(), 'x')).toMatchObject({ ok: true, violated: true });
    const lenient = { ...guard(), block_at: 'high' as const };
    expect(await judgeAnswer(scriptedModel([{ text: '{"severity":"medium","reason":"vague"}' }]), lenient, 'x')).toMatchObject({ ok: true, violated: false });
  });
  it('the fake judge flags only the terms the policy quotes, and says so', async () => {
    const fake = new FakeGuardModel();
    const bad = await judgeAnswer(fake, guard(), 'Delivery is Guaranteed by Friday.');
    expect(bad).toMatchObject({ ok: true, violated: true });
    const good = await judgeAnswer(fake, guard(), 'It should arrive soon.');
    expect(good).toMatchObject({ ok: true, violated: false });
    if (good.ok) expect(good.verdict.reason).toContain('fake judge');
  });
});
