import { describe, expect, it } from 'vitest';
import { DatasetIdSchema, datasetAllowList } from './datasets';

describe('datasetAllowList', () => {
  it('always offers the bundled dataset first', () => {
    expect(datasetAllowList('/repo/data', undefined)).toEqual([{ id: 'bundled', dir: '/repo/data' }]);
  });

  it('names extra datasets by folder and numbers collisions', () => {
    const list = datasetAllowList('/repo/data', ' /a/stockroom-v1 , /b/Stockroom_V1/ ,,/a/stockroom-v1');
    expect(list.map((e) => e.id)).toEqual(['bundled', 'extra-stockroom-v1', 'extra-stockroom-v1-2']);
  });

  it('refuses relative paths', () => {
    expect(() => datasetAllowList('/repo/data', '../shared/stockroom-v1')).toThrow(/absolute/);
  });
});

describe('DatasetIdSchema', () => {
  it('accepts ids and refuses paths', () => {
    expect(DatasetIdSchema.safeParse('extra-stockroom-v1').success).toBe(true);
    expect(DatasetIdSchema.safeParse('../etc').success).toBe(false);
    expect(DatasetIdSchema.safeParse('/tmp/x').success).toBe(false);
  });
});
