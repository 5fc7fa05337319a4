import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineFromReport, baselineMismatches, parseBaseline, readBaseline, writeBaseline } from './baseline';
import { EvalFileError } from './errors';
import { buildReport, parseReport, readReport } from './report';
import { runSuite, type SuiteAgent } from './suite';
import { goldenCase, makeRun, toolRecord } from './testing/fixtures';
import { DEFAULT_CONFIG } from '../harness/config';

/** An agent that answers from a table, standing in for the Stockroom agent. */
function tableAgent(answers: Record<string, string>): SuiteAgent & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    async run(query, caseId) {
      seen.push(caseId ?? '');
      return makeRun({
        finalAnswer: answers[query] ?? 'no idea',
        trajectory: [toolRecord('search_products', { query }, { resultContent: { answer: answers[query] ?? null } })],
      });
    },
  };
}

const cases = [
  goldenCase({ id: 'A1', category: 'alpha', query: 'first', expectedTools: [{ name: 'search_products', args: {} }], expectedFacts: ['SKU-1'] }),
  goldenCase({ id: 'B1', category: 'beta', query: 'second', expectedFacts: ['SKU-2'] }),
];

describe('runSuite', () => {
  it('runs the cases in file order, reports progress and aggregates the scores', async () => {
    const agent = tableAgent({ first: 'SKU-1 it is.', second: 'SKU-3 it is.' });
    const progress: string[] = [];
    const suite = await runSuite({ agent, cases, onProgress: (p) => progress.push(`${p.done}/${p.total} ${p.caseId}`) });
    expect(agent.seen).toEqual(['A1', 'B1']);
    expect(progress).toEqual(['1/2 A1', '2/2 B1']);
    expect(suite.results.map((r) => r.scores.judgePassed)).toEqual([true, false]);
    expect(suite.aggregate.metrics).toMatchObject({ cases: 2, answer_correctness: 0.5, tool_selection_accuracy: 0.5 });
  });
});

describe('buildReport / parseReport', () => {
  it('round-trips through JSON with the configuration, data identity and per-case runs', async () => {
    const suite = await runSuite({ agent: tableAgent({ first: 'SKU-1', second: 'SKU-2' }), cases });
    const report = buildReport({
      suite,
      config: DEFAULT_CONFIG,
      dataset: { name: 'fixture', hash: 'abc' },
      golden: { path: 'g.jsonl', sha256: 'f00' },
      now: () => new Date('2026-01-02T03:04:05Z'),
    });
    expect(report).toMatchObject({
      version: 1,
      generatedAt: '2026-01-02T03:04:05.000Z',
      dataset: { name: 'fixture', hash: 'abc' },
      golden: { file: 'g.jsonl', sha256: 'f00', cases: 2 },
      by_category: { alpha: { cases: 1 }, beta: { cases: 1 } },
    });
    expect(report.cases[0]?.run.toolCalls).toEqual([{ name: 'search_products', args: { query: 'first' }, status: 'ok', quarantinedLines: 0 }]);
    expect(parseReport(JSON.stringify(report), 'r.json')).toEqual(report);
  });

  it('refuses text that is not a report, naming the field', () => {
    expect(() => parseReport('{"version": 1}', 'r.json')).toThrow(EvalFileError);
    expect(() => parseReport('{"version": 1}', 'r.json')).toThrow(/r\.json: not an evaluation report: /);
    expect(() => readReport('/nonexistent/report.json')).toThrow(/cannot read the report/);
  });

  it('writes a baseline that reads back as the report’s metrics, and accepts a whole report as a baseline', async () => {
    const suite = await runSuite({ agent: tableAgent({ first: 'SKU-1', second: 'SKU-2' }), cases });
    const report = buildReport({ suite, config: DEFAULT_CONFIG, dataset: { name: 'd', hash: 'h' }, golden: { path: 'g', sha256: 's' } });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'baseline-')), 'baseline.json');
    writeBaseline(file, baselineFromReport(report));
    const baseline = readBaseline(file);
    expect(baseline.metrics).toEqual(report.metrics);
    expect(baselineMismatches(baseline.source, report)).toEqual([]);
    expect(parseBaseline(JSON.stringify(report), 'r.json').metrics).toEqual(report.metrics);
    expect(() => parseBaseline('{"metrics": 1}', 'b.json')).toThrow(/neither a baseline nor a report/);
  });

  it('says when a baseline was measured on other data or flags', async () => {
    const suite = await runSuite({ agent: tableAgent({}), cases });
    const report = buildReport({ suite, config: DEFAULT_CONFIG, dataset: { name: 'd', hash: 'h1' }, golden: { path: 'g', sha256: 's1' } });
    const source = { datasetName: 'old', datasetHash: 'h0', goldenSha256: 's1', weaknesses: ['naive_retry'] };
    expect(baselineMismatches(source, report)).toEqual(['dataset old (h0) vs d (h1)', 'weaknesses [naive_retry] vs []']);
  });
});
