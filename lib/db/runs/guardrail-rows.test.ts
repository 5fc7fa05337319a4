/** Guardrail events are stored with the run (guard-event table, guard `guardrail`) and come back whole, in place. */
import { expect } from 'vitest';
import { resolveConfig } from '../../harness/config';
import { parseGuardrails } from '../../harness/guardrails/config';
import { runHarness } from '../../harness/loop/run';
import { scriptedModel } from '../../harness/testing/scripted-model';
import { getRunTimeline } from './run-timeline';
import { getRunOrThrow, getRunSummaryOrThrow } from './runs-read';
import { saveRun } from './runs-write';
import { makeMeta } from '../testing/run-fixtures';
import { describeOnDatabases } from '../testing/on-databases';

describeOnDatabases('guardrail events on $name', ({ test, db }) => {
  test('round-trip through storage, count in no guard figure, and list in the timeline without passed checks', async () => {
    const config = resolveConfig({ guardrails: parseGuardrails({ must_include: ['units'], detectors: { no_pii: { redact: true } } }) });
    const executor = { transport: 'test', listSpecs: async () => [], call: async () => ({ content: null, isError: false, errorCode: null, payloadChars: 0 }), reset: async () => {}, close: async () => {} };
    const run = await runHarness({ query: 'How many?' }, { config, executor, model: scriptedModel([{ text: 'Forty.' }, { text: '40 units; ask bob@example.com.' }]), systemPrompt: 's' });
    const id = await saveRun(run, makeMeta(), db);
    const stored = await getRunOrThrow(id, db);
    expect(stored.run.trajectory.filter((s) => s.kind === 'guardrail')).toEqual(run.trajectory.filter((s) => s.kind === 'guardrail'));
    expect(stored.run.finalAnswer).toBe('40 units; ask [REDACTED:email].');
    expect((await getRunSummaryOrThrow(id, db)).guardCount).toBe(0);
    const timeline = await getRunTimeline(id, db);
    expect(timeline.events.map((e) => (e.kind === 'guardrail' ? `${e.guardrail}:${e.action}` : e.kind))).toEqual(['must_include:violated', 'guardrails:retry', 'no_pii:finding']);
  });
});

