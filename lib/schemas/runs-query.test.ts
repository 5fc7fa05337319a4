import { describe, expect, it } from 'vitest';
import { RunsQuerySchema, hasFilters, runFiltersOf, runsHref } from './runs-query';

describe('RunsQuerySchema', () => {
  it('drops invalid values instead of failing the page', () => {
    const q = RunsQuerySchema.parse({ termination: 'BOGUS', sort: 'id; DROP', size: '7', flag: 'naive_retry', q: ['widgets', 'x'] });
    expect(q).toMatchObject({ termination: undefined, sort: 'startedAt', size: 50, flag: 'naive_retry', q: 'widgets' });
  });
});

describe('runsHref', () => {
  it('leaves defaults out and applies overrides', () => {
    const q = RunsQuerySchema.parse({ category: 'product_search', cursor: 'abc' });
    expect(runsHref(q)).toBe('/runs?category=product_search&cursor=abc');
    expect(runsHref(q, { cursor: undefined, sort: 'steps', dir: 'asc' })).toBe('/runs?category=product_search&sort=steps&dir=asc');
    expect(runsHref(RunsQuerySchema.parse({}))).toBe('/runs');
  });

  it('encodes text so a query cannot break out of the URL', () => {
    const q = RunsQuerySchema.parse({ q: 'a&b=<x>' });
    expect(runsHref(q)).toBe('/runs?q=a%26b%3D%3Cx%3E');
  });
});

describe('waiting-for-approval and transport filters', () => {
  it('reach the data layer as status and transport, and unknown values are dropped', () => {
    const q = RunsQuerySchema.parse({ status: 'paused', transport: 'mcp-stdio' });
    expect(runFiltersOf(q, 'kittiwake')).toMatchObject({ status: 'paused', transport: 'mcp-stdio' });
    expect(runsHref(q)).toBe('/runs?status=paused&transport=mcp-stdio');
    expect(RunsQuerySchema.parse({ status: 'finished', transport: 'smtp' })).toMatchObject({ status: undefined, transport: undefined });
  });
});

describe('hasFilters', () => {
  it('ignores sort and paging', () => {
    expect(hasFilters(RunsQuerySchema.parse({ sort: 'steps', cursor: 'x' }))).toBe(false);
    expect(hasFilters(RunsQuerySchema.parse({ caseId: 'S001' }))).toBe(true);
  });
});
