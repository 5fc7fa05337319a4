import { describe, expect, it } from 'vitest';
import { RunMatrixInputSchema, RunOneInputSchema } from './run-settings';

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
