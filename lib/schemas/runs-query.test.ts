import { describe, expect, it } from 'vitest';
import { RunsQuerySchema, groupingBlockedBy, hasFilters, runFiltersOf, runsHref } from './runs-query';

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

describe('model, guard and group-by-suite', () => {
  it('reach the data layer and the URL, and unknown values are dropped', () => {
    const q = RunsQuerySchema.parse({ model: 'gpt-x', guard: 'grounded_write', group: 'suite' });
    expect(runFiltersOf(q, 'kittiwake')).toMatchObject({ modelId: 'gpt-x', guard: 'grounded_write' });
    expect(runsHref(q)).toBe('/runs?model=gpt-x&guard=grounded_write&group=suite');
    expect(RunsQuerySchema.parse({ guard: 'nope', group: 'case' })).toMatchObject({ guard: undefined, group: undefined });
  });

  it('groups only in date order and never a text search or one suite', () => {
    expect(groupingBlockedBy(RunsQuerySchema.parse({ group: 'suite' }))).toBeNull();
    expect(groupingBlockedBy(RunsQuerySchema.parse({ group: 'suite', sort: 'steps' }))).toMatch(/date order/);
    expect(groupingBlockedBy(RunsQuerySchema.parse({ group: 'suite', q: 'NW40718236' }))).toMatch(/run by run/);
    expect(groupingBlockedBy(RunsQuerySchema.parse({ group: 'suite', suite: 'abc' }))).toMatch(/one suite/);
  });
});

describe('the runs page\'s label, tool-error, latency and cost filters', () => {
  it('parse into data-layer filters (seconds to ms) and survive in links; bad values are dropped', () => {
    const q = RunsQuerySchema.parse({ labelled: 'no', label: 'fail', toolError: '1', slowerThan: '2.5', costAbove: '0.01' });
    expect(runFiltersOf(q, 't')).toMatchObject({ tenant: 't', labelled: 'no', label: 'fail', toolError: true, minDurationMs: 2500, minCostUsd: 0.01 });
    expect(runsHref(q)).toBe('/runs?labelled=no&label=fail&toolError=1&slowerThan=2.5&costAbove=0.01');
    const bad = RunsQuerySchema.parse({ labelled: 'maybe', toolError: 'yes', slowerThan: '-1', costAbove: 'lots' });
    expect(runsHref(RunsQuerySchema.parse({ slowerThan: '', costAbove: '' }))).toBe('/runs');
    expect(runFiltersOf(bad, 't')).toMatchObject({ labelled: undefined, toolError: undefined, minDurationMs: undefined, minCostUsd: undefined });
  });
});

describe('the agent filters', () => {
  it('reach the data layer as an agent name and at least two agents, and survive in links', () => {
    const q = RunsQuerySchema.parse({ agent: ' inventory-checker ', multiAgent: '1' });
    expect(runFiltersOf(q, 'kittiwake')).toMatchObject({ agent: 'inventory-checker', minAgents: 2 });
    expect(runsHref(q)).toBe('/runs?agent=inventory-checker&multiAgent=1');
    expect(hasFilters(q)).toBe(true);
  });

  it('drop a bad value instead of failing the page', () => {
    const q = RunsQuerySchema.parse({ agent: 'x'.repeat(300), multiAgent: 'yes' });
    expect(runFiltersOf(q, 'kittiwake')).toMatchObject({ agent: undefined, minAgents: undefined });
    expect(hasFilters(RunsQuerySchema.parse({ agent: '' }))).toBe(false);
  });
});
