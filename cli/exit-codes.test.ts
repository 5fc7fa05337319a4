/**
 * `run`'s exit status says how the run ended (issue 22, part 1): 0 only for COMPLETED, and each other
 * termination its own documented code, whether the model is the fake one or a live provider's
 * wire-level stub on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TERMINATION_REASONS } from '../lib/harness/types';
import { resetBreakers } from '../lib/models/resilience';
import { ProviderStub } from '../lib/models/testing/stub-server';
import { EXIT_CODES } from './exit-codes';
import { runInProcess } from './testing/in-process';

const run = (args: string[], env: Record<string, string | undefined> = {}) => runInProcess('run', args, env);
const termination = (stdout: string) => (JSON.parse(stdout) as { terminationReason: string }).terminationReason;

describe('run exit status', () => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await ProviderStub.start('openai');
  });
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    resetBreakers();
  });
  const live = ['--model', 'openai:gpt-test', '--json'];
  const env = () => ({ OPENAI_API_KEY: 'sk-test', STOCKROOM_MODEL_BASE_URL: undefined });

  it('is 0 for a run that completed', async () => {
    const r = await run(['Where is SKU-2001 stored?', '--json']);
    expect(termination(r.stdout)).toBe('COMPLETED');
    expect(r.code).toBe(0);
  });

  it('is the MAX_STEPS code, not 0, for a run stopped by its step limit', async () => {
    const r = await run(['Where is SKU-2001 stored?', '--max-steps', '1', '--json']);
    expect(termination(r.stdout)).toBe('MAX_STEPS');
    expect(r.code).toBe(EXIT_CODES.MAX_STEPS);
  });

  it('is the OUTPUT_TRUNCATED code for a live answer cut at the output limit', async () => {
    stub.enqueue({ text: 'SKU-2001 is in ais', stop: 'length' });
    const r = await run(['Where is SKU-2001 stored?', ...live, '--model-base-url', stub.baseURL], env());
    expect(termination(r.stdout)).toBe('OUTPUT_TRUNCATED');
    expect(r.code).toBe(EXIT_CODES.OUTPUT_TRUNCATED);
  });

  it('is the MODEL_ERROR code when the provider keeps failing', async () => {
    stub.respondWith(() => ({ kind: 'error', status: 401 }));
    try {
      const r = await run(['Where is SKU-2001 stored?', ...live, '--model-base-url', stub.baseURL], env());
      expect(termination(r.stdout)).toBe('MODEL_ERROR');
      expect(r.code).toBe(EXIT_CODES.MODEL_ERROR);
    } finally {
      stub.respondWith(null);
    }
  });

  it('gives every termination its own code, 0 only to COMPLETED, none shared with 1, 2 or 130, each in the documented table', () => {
    const codes = TERMINATION_REASONS.map((t) => EXIT_CODES[t]);
    expect(new Set(codes).size).toBe(codes.length);
    expect(TERMINATION_REASONS.filter((t) => EXIT_CODES[t] === 0)).toEqual(['COMPLETED']);
    for (const c of codes) expect([1, 2, 130]).not.toContain(c);
    const readme = readFileSync('docs/guides/command-line.md', 'utf8');
    for (const t of TERMINATION_REASONS) expect(readme).toMatch(new RegExp(`\\| \`${t}\` \\|[^\\n]*\\| ${EXIT_CODES[t]} \\|`));
  });
});
