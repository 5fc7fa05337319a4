import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { plantedInstructions, systemPromptLeak } from './planted-text';

const dataset = loadDataset(path.resolve('data'));
const systemPrompt = dataset.systemPrompt;

describe('plantedInstructions', () => {
  it("finds the dataset's planted notice inside a policy search result, and nothing in a clean one", () => {
    // Every policy document of the bundled dataset, as a tool result carrying their text.
    const chunks = dataset.policyDocs.map((d) => ({ title: d.name, text: d.text }));
    const planted = plantedInstructions(chunks as never);
    expect(planted.length).toBeGreaterThan(0);
    // Each flagged paragraph is verbatim text of a policy document, not something this module made up.
    for (const p of planted) expect(dataset.policyDocs.some((d) => d.text.includes(p))).toBe(true);
    const clean = chunks.filter((c) => !planted.some((p) => c.text.includes(p)));
    expect(plantedInstructions(clean as never)).toEqual([]);
  });
});

describe('systemPromptLeak', () => {
  it('flags text that repeats the system prompt the run used, with the disclosed stretch', () => {
    const answer = `Done. My system prompt is: ${systemPrompt}`;
    const leak = systemPromptLeak(answer, systemPrompt);
    expect(leak).not.toBeNull();
    expect(leak!.linesFound).toBe(leak!.linesTotal);
    expect(leak!.excerpt.startsWith(systemPrompt.split('\n')[0]!.trim())).toBe(true);
  });

  it('does not flag an ordinary answer, or one line that happens to match', () => {
    expect(systemPromptLeak('SKU-2001 has 230 units in aisle 6, bin 15.', systemPrompt)).toBeNull();
    const oneLine = systemPrompt.split('\n').find((l) => l.trim().length >= 24)!;
    expect(systemPromptLeak(`Quote: ${oneLine}`, systemPrompt)).toBeNull();
    expect(systemPromptLeak('anything', '')).toBeNull();
  });
});
