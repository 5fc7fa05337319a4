/**
 * Real runs for the export and import tests: the Stockroom agent on the repository's own dataset,
 * driven by scripted model turns so each run shows one thing (a clean call, an invalid call, a
 * guard-blocked write, a repeated-call stop).
 */
import { resolveConfig } from '../../harness';
import { repeatingModel, scriptedModel, type TurnSpec } from '../../harness/testing/scripted-model';
import type { RunResult } from '../../harness';
import { createStockroomAgent } from '../../stockroom';
import { defaultDatasetDir, loadDataset } from '../../stockroom';

export async function sampleRuns(): Promise<Record<'mixed' | 'repeated' | 'blocked', RunResult>> {
  const dataset = loadDataset(defaultDatasetDir());
  const run = async (turns: TurnSpec[] | 'repeat', guards: 'grounded_write'[] = []) => {
    const agent = await createStockroomAgent({ dataset, config: resolveConfig({ guards }) });
    const model = turns === 'repeat' ? repeatingModel('search_products', { query: 'lashing straps' }) : scriptedModel(turns, dataset.floatKeys);
    try {
      return await agent.run('Do you sell ratchet lashing straps?', null, { model });
    } finally {
      await agent.close();
    }
  };
  return {
    mixed: await run([
      { calls: [['search_products', { query: 'ratchet lashing straps' }]] },
      { calls: [['get_stock_level', { sku: 2011 }], ['get_stock_level', { sku: 'SKU-2011' }]] },
      { text: 'Yes: SKU-2011, 3 packs in stock.' },
    ]),
    repeated: await run('repeat'),
    blocked: await run([{ calls: [['create_restock_request', { sku: 'SKU-2011', quantity: 5 }]] }, { text: 'Requested.' }], ['grounded_write']),
  };
}
