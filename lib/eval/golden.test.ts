import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GoldenFileError } from './errors';
import { loadGoldenFile, parseGoldenText } from './golden';

const line = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'T1', category: 'c', query: 'q?', reference_answer: 'r', ...over });

function issuesOf(text: string) {
  try {
    parseGoldenText(text, 'g.jsonl');
  } catch (err) {
    if (err instanceof GoldenFileError) return err.issues;
    throw err;
  }
  throw new Error('expected a GoldenFileError');
}

describe('parseGoldenText', () => {
  it('fills the defaults of a minimal case', () => {
    expect(parseGoldenText(line(), 'g.jsonl')).toEqual([
      {
        id: 'T1',
        category: 'c',
        query: 'q?',
        expectedTools: [],
        trajectoryMatchMode: 'exact',
        expectedFacts: [],
        forbiddenFacts: [],
        expectedTermination: 'COMPLETED',
        mustNotCall: [],
        mockScript: null,
        referenceAnswer: 'r',
        retrieval: null,
        maxSteps: null,
        tags: [],
        notes: null,
      },
    ]);
  });

  it('reads every field, defaults args to {} and skips blank lines', () => {
    const text = [
      '',
      line({
        expected_tools: [{ name: 'search_products' }, { name: 'get_stock_level', args: { sku: 'SKU-1' } }],
        trajectory_match_mode: 'any_order',
        retrieval: { reference_contexts: ['a'], reference: 'b' },
        max_steps: 4,
        expected_termination: 'MAX_STEPS',
      }),
      '   ',
      line({ id: 'T2' }) + '\r',
    ].join('\n');
    const cases = parseGoldenText(text, 'g.jsonl');
    expect(cases.map((c) => c.id)).toEqual(['T1', 'T2']);
    expect(cases[0]).toMatchObject({
      expectedTools: [
        { name: 'search_products', args: {} },
        { name: 'get_stock_level', args: { sku: 'SKU-1' } },
      ],
      trajectoryMatchMode: 'any_order',
      retrieval: { referenceContexts: ['a'], reference: 'b' },
      maxSteps: 4,
      expectedTermination: 'MAX_STEPS',
    });
  });

  it('reports every bad line with its line number and field before giving up', () => {
    const text = [
      line(),
      '{not json',
      line({ id: 'T3', trajectory_match_mode: 'fuzzy' }),
      '',
      line({ id: 'T4', reference_answer: undefined, colour: 'red' }),
      line({ id: 'T5', expected_tools: [{ name: 'x', args: 'nope' }] }),
      line(),
    ].join('\n');
    const issues = issuesOf(text);
    expect(issues.map((i) => [i.line, i.field])).toEqual([
      [2, null],
      [3, 'trajectory_match_mode'],
      [5, 'reference_answer'],
      [5, 'colour'],
      [6, 'expected_tools.0.args'],
      [7, 'id'],
    ]);
    expect(issues.every((i) => i.file === 'g.jsonl')).toBe(true);
    expect(issues[2]?.message).toBe('required field is missing');
    expect(issues[3]?.message).toBe('unknown field');
    expect(issues[5]?.message).toContain('duplicate id T1 (first on line 1)');
  });

  it('names the file, line and field in the error message', () => {
    expect(() => parseGoldenText(line({ max_steps: 'four' }), 'golden/x.jsonl')).toThrow(/golden\/x\.jsonl:1 field max_steps: /);
  });

  it('refuses a file with no cases', () => {
    expect(issuesOf('\n\n')[0]?.message).toBe('the golden file holds no cases');
  });
});

describe('loadGoldenFile', () => {
  it('returns the cases with the sha256 of the file bytes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-'));
    const file = path.join(dir, 'g.jsonl');
    fs.writeFileSync(file, line() + '\n');
    const golden = loadGoldenFile(file);
    expect(golden.cases).toHaveLength(1);
    expect(golden.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(() => loadGoldenFile(path.join(dir, 'missing.jsonl'))).toThrow(/cannot read the golden file/);
  });
});
