/** Guardrail events leave with the run as `stockroom.guardrail` root-span events and come back on import. */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../harness/config';
import { parseGuardrails } from '../harness/guardrails/config';
import { runHarness } from '../harness/loop/run';
import { scriptedModel } from '../harness/testing/scripted-model';
import type { RunResult } from '../harness/types';
import { planRunSpans } from './run-spans';

async function guardedRun(): Promise<RunResult> {
  const config = resolveConfig({ guardrails: parseGuardrails({ must_include: ['units'], detectors: { no_pii: { redact: true } } }) });
  const executor = { transport: 'test', listSpecs: async () => [], call: async () => ({ content: null, isError: false, errorCode: null, payloadChars: 0 }), reset: async () => {}, close: async () => {} };
  return runHarness({ query: 'How many?' }, { config, executor, model: scriptedModel([{ text: 'Forty.' }, { text: '40 units; ask bob@example.com.' }]), systemPrompt: 's' });
}

describe('guardrail span events', () => {
  it('exports every guardrail event on the root span, findings’ context only with content capture', async () => {
    const run = await guardedRun();
    const guardrailEvents = run.trajectory.filter((s) => s.kind === 'guardrail');
    expect(guardrailEvents.length).toBeGreaterThanOrEqual(3);
    const plain = planRunSpans(run, { captureContent: false }).events.filter((e) => e.name === 'stockroom.guardrail');
    expect(plain.map((e) => `${e.attributes['stockroom.guardrail.name']}:${e.attributes['stockroom.guardrail.action']}`)).toEqual(
      guardrailEvents.map((e) => `${e.guardrail}:${e.action}`),
    );
    expect(plain.find((e) => e.attributes['stockroom.guardrail.action'] === 'retry')?.attributes['stockroom.guardrail.message']).toContain('"units"');
    expect(JSON.stringify(plain)).not.toContain('ask ');
    const full = planRunSpans(run, { captureContent: true }).events.filter((e) => e.name === 'stockroom.guardrail');
    expect(JSON.stringify(full)).toContain('ask ');
    expect(JSON.stringify(full)).not.toContain('bob@example.com');
  });
});
