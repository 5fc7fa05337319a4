import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGoldenText } from './golden';
import { draftCaseFromRun, draftGoldenCase, factsOf, type RunForDraft, goldenFileOfText, goldenLine, goldenSetRef, parseGoldenSetArg, parseGoldenSetRef } from './golden-sets';

const run: RunForDraft = {
  id: 'run_0123456789abcdef',
  caseId: 'S001',
  category: 'product_search',
  query: 'Do you sell ratchet straps?',
  finalAnswer: 'Yes: SKU-2011 at $28.60; only 3 packs are in stock.',
  terminationReason: 'COMPLETED',
  toolCalls: [
    { name: 'search_products', arguments: { query: 'ratchet straps' }, isError: false, executed: true },
    { name: 'get_stock', arguments: { sku: 'X' }, isError: true, executed: true },
    { name: 'create_restock_request', arguments: { sku: 'SKU-2011' }, isError: false, executed: false },
  ],
};

describe('golden cases drafted from runs', () => {
  it('takes the question, the answer as the expected one, the calls that ran without error, and the ids and numbers stated', () => {
    const draft = draftCaseFromRun(run);
    expect(draft).toMatchObject({ category: 'product_search', query: run.query, reference_answer: run.finalAnswer, expected_termination: 'COMPLETED' });
    expect(draft.expected_tools).toEqual([{ name: 'search_products', args: { query: 'ratchet straps' } }]);
    expect(draft.expected_facts).toEqual(expect.arrayContaining(['SKU-2011', '28.60', '3']));
    expect(factsOf('no figures here')).toEqual([]);
  });

  it('mines no fact from a counter of the run’s own work', () => {
    expect(factsOf('I tried 8 model calls and 3 tool calls over 9 steps; order 4521 is delayed.')).toEqual(['4521']);
  });

  it('drafts from the run’s golden case when it came from one, saying so, even after a failed run', () => {
    const [source] = parseGoldenText(
      JSON.stringify({ id: 'S050', category: 'order_status', query: 'Where is order 4521?', expected_tools: [{ name: 'get_order_status', args: { order_id: '4521' } }], expected_facts: ['4521', 'shipped'], reference_answer: 'Order 4521 has shipped.' }),
      'g.jsonl',
    );
    const failed = { ...run, caseId: 'S050', terminationReason: 'MAX_STEPS', finalAnswer: 'I stopped after 8 model calls.', toolCalls: [] };
    const d = draftGoldenCase(failed, source!);
    expect(d.basis).toBe('golden_case');
    expect(d.record).toMatchObject({ reference_answer: 'Order 4521 has shipped.', expected_facts: ['4521', 'shipped'], expected_tools: [{ name: 'get_order_status', args: { order_id: '4521' } }] });
    expect(d.warning).toContain('S050');
    expect(d.warning).toContain('MAX_STEPS');
  });

  it('from a failed run of no golden case, drafts only the question and warns', () => {
    const d = draftGoldenCase({ ...run, caseId: null, terminationReason: 'MAX_STEPS', finalAnswer: 'I stopped after 8 model calls.' }, null);
    expect(d.basis).toBe('failed_run');
    expect(d.record).toMatchObject({ query: run.query, reference_answer: '', expected_facts: [], expected_tools: [] });
    expect(d.warning).toContain('MAX_STEPS');
  });

  it('picks an id the set does not have yet', () => {
    const first = draftCaseFromRun(run);
    expect(draftCaseFromRun(run, new Set([first.id])).id).not.toBe(first.id);
    expect(draftCaseFromRun({ ...run, caseId: null }).id).toMatch(/^R/);
  });

  it('a drafted case is a valid line of the course format, and a set round-trips through JSONL', () => {
    const line = goldenLine(draftCaseFromRun(run));
    const [parsed] = parseGoldenText(line, 'x.jsonl');
    expect(parsed!.query).toBe(run.query);
    const bundled = fs.readFileSync(path.resolve(import.meta.dirname, '../../data/golden/stockroom_golden_own_v1.jsonl'), 'utf8');
    const file = goldenFileOfText(goldenSetRef('kittiwake', 'own', 1), bundled);
    expect(file.cases.length).toBe(parseGoldenText(bundled, 'b').length);
    expect(file.path).toBe('golden-set://kittiwake/own@1');
  });

  it('names a stored set by address and by --golden-set NAME[@VERSION]; refuses a bad one naming the flag', () => {
    expect(parseGoldenSetRef(goldenSetRef('t1', 'my-set', 3))).toEqual({ tenant: 't1', name: 'my-set', version: 3 });
    expect(parseGoldenSetRef('data/golden/x.jsonl')).toBeNull();
    expect(parseGoldenSetArg('my-set')).toEqual({ name: 'my-set', version: null });
    expect(parseGoldenSetArg('my-set@2')).toEqual({ name: 'my-set', version: 2 });
    expect(() => parseGoldenSetArg('My Set')).toThrow(/--golden-set/);
    expect(() => parseGoldenSetArg('s@0')).toThrow(/--golden-set/);
  });
});
