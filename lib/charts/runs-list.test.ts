import { describe, expect, it } from 'vitest';
import { categoryOptions, countText, datasetNameOptions, decidedRequests, modelOptions, pausedOn, runsOfRows, startedParts, tokensText } from './runs-list';

describe('the runs table, shaped', () => {
  const decided = new Map([['r2', { text: 'approved, resumed', tone: 'ok' }]]);

  it('points a paused run at its open request, with no outcome', () => {
    expect(pausedOn([{ id: 'r1', status: 'approved' }, { id: 'r3', status: 'pending' }], decided)).toEqual({ request: { id: 'r3', status: 'pending' }, outcome: null });
  });

  it('points a paused run whose requests were all decided at the last one, with what became of it', () => {
    expect(pausedOn([{ id: 'r1', status: 'denied' }, { id: 'r2', status: 'approved' }], decided)).toEqual({ request: { id: 'r2', status: 'approved' }, outcome: { text: 'approved, resumed', tone: 'ok' } });
    expect(pausedOn(undefined, decided)).toEqual({ request: undefined, outcome: null });
  });

  it('looks up outcomes only for decided requests', () => {
    const waiting = new Map([
      ['run-a', [{ id: 'r1', status: 'pending' }]],
      ['run-b', [{ id: 'r2', status: 'approved' }, { id: 'r4', status: 'expired' }]],
    ]);
    expect(decidedRequests(waiting).map((r) => r.id)).toEqual(['r2', 'r4']);
  });

  it('says tokens were not reported, or are a lower bound, when calls reported none', () => {
    expect(tokensText({ totalTokens: 12_345, unreportedCalls: 0 })).toBe('12,345');
    expect(tokensText({ totalTokens: 0, unreportedCalls: 2 })).toBe('not reported');
    expect(tokensText({ totalTokens: 900, unreportedCalls: 1 })).toBe('≥ 900');
  });

  it('counts runs in words, with + when the count stopped early and the suite when one is chosen', () => {
    expect(countText({ count: 1, exact: true }, undefined)).toBe('1 matching run');
    expect(countText({ count: 1000, exact: false }, 'S1')).toBe('1,000+ matching runs in suite S1');
  });

  it("keeps a model asked for in the model filter's options even when no run has it", () => {
    expect(modelOptions(['fake'], 'openai:gpt-x')).toEqual(['fake', 'openai:gpt-x']);
    expect(modelOptions(['fake'], 'fake')).toEqual(['fake']);
    expect(modelOptions(['fake'], undefined)).toEqual(['fake']);
  });

  it('lists each category and dataset name once', () => {
    const datasets = [
      { name: 'stockroom', categories: ['stock', 'orders'] },
      { name: 'stockroom', categories: ['orders', 'policy'] },
    ];
    expect(categoryOptions(datasets)).toEqual(['orders', 'policy', 'stock']);
    expect(datasetNameOptions(datasets)).toEqual(['stockroom']);
  });

  it("takes a page's runs, leaving suite groups out", () => {
    expect(runsOfRows([{ kind: 'run', run: 'a' }, { kind: 'suite' }, { kind: 'run', run: 'b' }])).toEqual(['a', 'b']);
  });

  it('splits a start time into its date and its time to the second', () => {
    expect(startedParts('2026-12-06T23:50:11.123Z')).toEqual({ date: '2026-12-06', time: '23:50:11' });
  });
});
