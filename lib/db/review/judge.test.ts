import { expect } from 'vitest';
import { calibrateJudge } from '../../eval/calibration';
import { FakeJudge } from '../../eval/judge';
import { NotFoundError } from '../core/errors';
import { countJudgeCalls, getCalibrationOrThrow, listCalibrations, PrismaJudgeCallStore, saveCalibration } from './judge';
import { describeOnDatabases } from '../testing/on-databases';

const ITEMS = [
  { id: 'A', query: 'q', answer: 'SKU-1 has 42 units.', context: 'stock_level 42', expected_facts: ['42'], forbidden_facts: [], human_label: 'pass' as const, human_score: 5, rationale: '', probe_group: null, probe_role: null },
  { id: 'B', query: 'q', answer: 'SKU-1 has 420 units.', context: 'stock_level 42', expected_facts: ['42'], forbidden_facts: ['420'], human_label: 'fail' as const, human_score: 1, rationale: '', probe_group: null, probe_role: null },
];

describeOnDatabases('judge storage on $name', ({ test, db }) => {
  test('stores a calibration in its tenant; another tenant neither lists it nor finds it', async () => {
    const result = await calibrateJudge({ judge: new FakeJudge('v2'), set: { name: 'tiny.jsonl', sha256: 'ab'.repeat(32), items: ITEMS } });
    const id = await saveCalibration(result, { tenant: 'kittiwake', providerCalls: 0 }, db);
    const mine = await getCalibrationOrThrow(id, 'kittiwake', db);
    expect(mine).toMatchObject({ judge: 'fake-judge', items: 2, scored: 2, unscored: 0, agreement: result.overall.agreement, kappa: result.overall.kappa });
    expect(mine.result.items.map((i) => i.verdict)).toEqual(result.items.map((i) => i.verdict));
    expect((await listCalibrations('kittiwake', db)).map((c) => c.id)).toContain(id);
    expect(await listCalibrations('puffin', db)).toEqual([]);
    await expect(getCalibrationOrThrow(id, 'puffin', db)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getCalibrationOrThrow('missing', 'kittiwake', db)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('records judge calls per tenant and judge, and answers a lookup only there', async () => {
    const record = { judge: 'openai:j', requestDigest: 'cd'.repeat(32), request: { system: 's' }, response: { text: null, toolCalls: [] }, raw: { id: 'x' }, inputTokens: 3, outputTokens: 4 };
    await new PrismaJudgeCallStore('kittiwake', db).put(record);
    await new PrismaJudgeCallStore('kittiwake', db).put(record); // recording twice is harmless
    expect(await new PrismaJudgeCallStore('kittiwake', db).get('openai:j', record.requestDigest)).toEqual(record);
    expect(await new PrismaJudgeCallStore('puffin', db).get('openai:j', record.requestDigest)).toBeNull();
    expect(await new PrismaJudgeCallStore('kittiwake', db).get('anthropic:j', record.requestDigest)).toBeNull();
    expect(await countJudgeCalls('kittiwake', db)).toBe(1);
  });
});

