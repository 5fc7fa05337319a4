import { describe, expect, it } from 'vitest';
import { RunMatrixInputSchema, RunOneInputSchema, RunSuiteInputSchema } from './run-settings';

describe('RunOneInputSchema', () => {
  it('accepts a case and normalises flag lists', () => {
    const r = RunOneInputSchema.parse({ datasetId: 'bundled', caseId: 'S001', weaknesses: ['naive_retry', 'ambiguous_tool_desc', 'naive_retry'] });
    expect(r).toMatchObject({ weaknesses: ['ambiguous_tool_desc', 'naive_retry'], guards: [], transport: 'local' });
  });

  it('refuses both a case and a query, and neither', () => {
    expect(RunOneInputSchema.safeParse({ datasetId: 'bundled', caseId: 'S001', query: 'x' }).success).toBe(false);
    const neither = RunOneInputSchema.safeParse({ datasetId: 'bundled', query: '   ' });
    expect(neither.success).toBe(false);
    expect(neither.error?.issues[0]?.path).toEqual(['caseId']);
  });

  it('refuses unknown flags, guards and transports', () => {
    expect(RunOneInputSchema.safeParse({ datasetId: 'bundled', query: 'q', weaknesses: ['rm -rf'] }).success).toBe(false);
    expect(RunOneInputSchema.safeParse({ datasetId: 'bundled', query: 'q', guards: ['nope'] }).success).toBe(false);
    expect(RunOneInputSchema.safeParse({ datasetId: 'bundled', query: 'q', transport: 'smtp' }).success).toBe(false);
  });
});

describe('RunMatrixInputSchema', () => {
  it('drops weakness flags, which each matrix row sets itself', () => {
    expect(RunMatrixInputSchema.parse({ datasetId: 'bundled', weaknesses: ['naive_retry'] })).not.toHaveProperty('weaknesses');
  });
});

describe('the model choice', () => {
  it('defaults to the fake model and keeps a provider:model name', () => {
    expect(RunOneInputSchema.parse({ datasetId: 'bundled', caseId: 'S001' }).model).toBe('fake');
    expect(RunOneInputSchema.parse({ datasetId: 'bundled', caseId: 'S001', model: 'openai-compatible:meta-llama/Llama-3-8B' }).model).toBe('openai-compatible:meta-llama/Llama-3-8B');
    expect(RunMatrixInputSchema.parse({ datasetId: 'bundled', model: 'bedrock:anthropic.claude-3-haiku-20240307-v1:0' }).model).toBe('bedrock:anthropic.claude-3-haiku-20240307-v1:0');
  });

  it('refuses an unknown provider, an empty or odd model id, and anything URL-like, on the model field', () => {
    for (const model of ['gpt-4o', 'evil:x', 'openai:', 'openai:a b', 'openai-compatible:http://evil.example/v1', `openai:${'x'.repeat(200)}`]) {
      const r = RunOneInputSchema.safeParse({ datasetId: 'bundled', caseId: 'S001', model });
      expect(r.success, model).toBe(false);
      expect(r.error?.issues[0]?.path, model).toEqual(['model']);
    }
  });
});

describe('epochs and the noisy fake model (issue 35)', () => {
  it('takes epochs from 1 to 100 as the form sends them (text), one when absent or empty', () => {
    expect(RunMatrixInputSchema.parse({ datasetId: 'bundled', epochs: '3' }).epochs).toBe(3);
    expect(RunSuiteInputSchema.parse({ datasetId: 'bundled', epochs: 100 }).epochs).toBe(100);
    expect(RunMatrixInputSchema.parse({ datasetId: 'bundled', epochs: '' }).epochs).toBe(1);
    expect(RunMatrixInputSchema.parse({ datasetId: 'bundled' }).epochs ?? 1).toBe(1);
  });

  it.each([['0'], ['101'], ['two'], ['1.5'], [-2]])('refuses epochs %s on the epochs field', (epochs) => {
    const r = RunMatrixInputSchema.safeParse({ datasetId: 'bundled', epochs });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['epochs']);
    expect(r.error?.issues[0]?.message).toBe('epochs is a whole number from 1 to 100');
  });

  it('takes fake-noisy with a seed, and refuses a seed with any other model, or a bad one, on the seed field', () => {
    expect(RunSuiteInputSchema.parse({ datasetId: 'bundled', model: 'fake-noisy', seed: '42' })).toMatchObject({ model: 'fake-noisy', seed: 42 });
    expect(RunOneInputSchema.parse({ datasetId: 'bundled', caseId: 'S001', model: 'fake-noisy', seed: 7 })).toMatchObject({ seed: 7 });
    for (const bad of [{ model: 'fake', seed: 1 }, { model: 'fake-noisy', seed: '-1' }, { model: 'fake-noisy', seed: 'x' }]) {
      const r = RunMatrixInputSchema.safeParse({ datasetId: 'bundled', ...bad });
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['seed']);
    }
  });
});
