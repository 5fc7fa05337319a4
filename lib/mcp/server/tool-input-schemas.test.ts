/** The server's zod validation and the JSON schema it advertises accept and refuse the same arguments. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { WeaknessFlag } from '../../harness/config';
import type { JsonValue } from '../../harness/json';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { StockroomEnvironment } from '../../stockroom/environment';
import type { ToolName } from '../../stockroom/dataset/types';
import { toolInputSchemas } from './tool-input-schemas';
import { hasShared, SHARED_DATASET_DIR } from '../test-support';

const SAMPLES: Record<ToolName, JsonValue[]> = {
  search_products: [{ query: 'gloves' }, { query: '' }, { query: 'x', max_results: 20 }, { query: 'x', max_results: 21 }, { query: 'x', max_results: 1.5 }, {}, { query: 3 }, { query: 'x', other: 1 }],
  get_stock_level: [{ sku: 'SKU-1001' }, { sku: 'SKU-100' }, { sku: 'sku-1001' }, { sku: 'SKU-10011' }, {}, { sku: 'SKU-1001', x: 1 }],
  get_order_status: [{ order_id: 'ORD-9001' }, { order_id: 'ORD-90011' }, { order_id: 'ord-9001' }, { order_id: null }],
  create_restock_request: [
    { sku: 'SKU-1001', quantity: 1 },
    { sku: 'SKU-1001', quantity: 0 },
    { sku: 'SKU-1001', quantity: 2.5 },
    { sku: 'SKU-1001', quantity: '10' },
    { sku: 'SKU-1001', quantity: 10, priority: 'urgent' },
    { sku: 'SKU-1001', quantity: 10, priority: 'later' },
    { quantity: 10 },
  ],
  search_policy_docs: [{ query: 'returns' }, { query: 'returns', top_k: 5 }, { query: 'returns', top_k: 6 }, { query: 'returns', top_k: 0 }, { top_k: 1 }],
};

describe.skipIf(!hasShared).each([[[]], [['oversized_payload']]] as WeaknessFlag[][][])('with flags %j', (weaknesses) => {
  const dataset = hasShared ? loadDataset(SHARED_DATASET_DIR) : (undefined as never);
  const specs = hasShared ? new StockroomEnvironment(dataset, weaknesses).listSpecs() : [];
  const zod = toolInputSchemas(weaknesses);
  const ajv = new Ajv2020({ strict: false });

  it.each(Object.keys(SAMPLES) as ToolName[])('%s: zod agrees with the advertised JSON schema', (name) => {
    const validate = ajv.compile(specs.find((s) => s.name === name)!.inputSchema);
    for (const sample of SAMPLES[name]) {
      expect(zod[name].safeParse(sample).success, JSON.stringify(sample)).toBe(validate(sample));
    }
  });
});
