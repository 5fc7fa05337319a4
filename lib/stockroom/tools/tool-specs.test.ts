import { afterAll, describe, expect, it } from 'vitest';
import type { WeaknessFlag } from '../../harness/config';
import { DatasetError } from '../../harness/errors';
import { pyJson } from '../../harness/pyjson';
import { loadDataset } from '../dataset/load-dataset';
import { fixtureFiles, removeFixtureDatasets, writeFixtureDataset } from '../testing/fixture-dataset';
import { SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../testing/shared-dataset';
import { buildToolSpecs, toConverseToolSpec } from './tool-specs';

afterAll(() => removeFixtureDatasets());

const lengths = (flags: WeaknessFlag[]) =>
  buildToolSpecs(loadDataset(SHARED_DATASET_DIR), flags).map((s) => pyJson(toConverseToolSpec(s)).length);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe.skipIf(!warnIfNoSharedDataset())('tool specs on the shared dataset (SPEC.md §6.3)', () => {
  it('serialises the five default specs to 550, 458, 377, 591 and 433 characters (2409)', () => {
    expect(lengths([])).toEqual([550, 458, 377, 591, 433]);
    expect(sum(lengths([]))).toBe(2409);
  });

  it('totals 2398 with the ambiguous search_products description', () => {
    expect(lengths(['ambiguous_tool_desc'])).toEqual([539, 458, 377, 591, 433]);
    expect(sum(lengths(['ambiguous_tool_desc']))).toBe(2398);
  });

  it('totals 2287 when oversized_payload drops max_results', () => {
    expect(lengths(['oversized_payload'])[0]).toBe(428);
    expect(sum(lengths(['oversized_payload']))).toBe(2287);
    expect(lengths(['oversized_payload', 'ambiguous_tool_desc'])[0]).toBe(428 - 11);
  });

  it('prints the search_products spec exactly, patterns with doubled backslashes', () => {
    const [search, stock] = buildToolSpecs(loadDataset(SHARED_DATASET_DIR), []);
    expect(pyJson(toConverseToolSpec(search!))).toContain(
      '"max_results": {"type": "integer", "minimum": 1, "maximum": 20, "description": "Maximum products to return (default 5)"}}, "required": ["query"], "additionalProperties": false}}}}',
    );
    expect(pyJson(toConverseToolSpec(stock!))).toContain('"pattern": "^SKU-\\\\d{4}$"');
  });
});

describe('buildToolSpecs', () => {
  it('lists the tools in the fixed order with the dataset descriptions', () => {
    const specs = buildToolSpecs(loadDataset(writeFixtureDataset()), ['ambiguous_tool_desc']);
    expect(specs.map((s) => [s.name, s.description])).toEqual([
      ['search_products', 'Find anything.'],
      ['get_stock_level', 'Stock of one SKU.'],
      ['get_order_status', 'Status of one order.'],
      ['create_restock_request', 'Raise a restock request.'],
      ['search_policy_docs', 'Search the policies.'],
    ]);
    expect(Object.isFrozen(specs[0]!.inputSchema)).toBe(true);
  });

  it('refuses ambiguous_tool_desc when the dataset has no ambiguous description', () => {
    const desc = JSON.parse(fixtureFiles()['agent/tool_descriptions.json']!) as { tools: { search_products: { ambiguous?: string } } };
    delete desc.tools.search_products.ambiguous;
    const dataset = loadDataset(writeFixtureDataset({ 'agent/tool_descriptions.json': JSON.stringify(desc) }));
    expect(buildToolSpecs(dataset, [])[0]!.description).toBe('Find products.');
    expect(() => buildToolSpecs(dataset, ['ambiguous_tool_desc'])).toThrow(DatasetError);
  });
});
