/**
 * Parity: the whole weakness matrix over mcp-stdio and mcp-http gives exactly the metrics of the
 * local executor, on the reference dataset and on our own.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig, type Transport } from '../harness/config';
import { MATRIX_SETTINGS, runMatrix } from '../eval/matrix';
import { loadDataset } from '../stockroom/dataset/load-dataset';
import { createExecutor } from './client/create-executor';
import { hasOwn, hasShared, OWN_DATASET_DIR, SHARED_DATASET_DIR } from './test-support';

async function matrixMetrics(datasetDir: string, transport: Transport) {
  const dataset = loadDataset(datasetDir);
  const matrix = await runMatrix({
    dataset,
    baseConfig: resolveConfig({ transport }),
    createExecutor: transport === 'local' ? undefined : (config) => createExecutor({ transport, dataset, weaknesses: config.weaknesses }),
    now: () => new Date(0),
  });
  return Object.fromEntries(MATRIX_SETTINGS.map((s) => [s, { metrics: matrix.reports[s].metrics, byCategory: matrix.reports[s].by_category }]));
}

const DATASETS = [
  { name: 'the reference dataset', dir: SHARED_DATASET_DIR, present: hasShared },
  { name: 'our own dataset (data/)', dir: OWN_DATASET_DIR, present: hasOwn },
];

describe.each(DATASETS)('the matrix on $name', ({ dir, present }) => {
  if (!present) console.warn(`skipping MCP parity on ${dir}: the dataset is absent`);

  it.skipIf(!present)('prints the same metrics over mcp-stdio and mcp-http as over local', async () => {
    const local = await matrixMetrics(dir, 'local');
    expect(await matrixMetrics(dir, 'mcp-stdio')).toEqual(local);
    expect(await matrixMetrics(dir, 'mcp-http')).toEqual(local);
  });
});
