import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, WEAKNESS_FLAGS } from '../../harness/config';
import { runMatrix, MATRIX_SETTINGS } from '../../eval/matrix';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { hasSharedDataset, SHARED_DATASET_DIR, warnIfNoSharedDataset } from '../../stockroom/testing/shared-dataset';
import { liveModelFactory } from '../create-model-client';
import { resetBreakers } from '../resilience';
import { startModelServer, type ModelServer } from './server';

warnIfNoSharedDataset();

/** The published table (stockroom-v1/PROVENANCE.md): tool selection, answer, termination, loop, must-not-call, mean input tokens. */
const COURSE_TABLE = {
  none: [1.0, 1.0, 1.0, 0.0, 1.0, 2019.84],
  ambiguous_tool_desc: [0.64, 0.78, 1.0, 0.0, 1.0, 2017.54],
  oversized_payload: [0.98, 0.96, 0.96, 0.0, 1.0, 2391.24],
  naive_retry: [0.96, 0.96, 0.96, 0.04, 1.0, 2323.32],
  injection_unguarded: [0.94, 0.94, 1.0, 0.0, 0.94, 2121.96],
} as const;

describe.skipIf(!hasSharedDataset)('the offline model server on stockroom-v1', () => {
  const dataset = hasSharedDataset ? loadDataset(SHARED_DATASET_DIR) : (null as never);
  let server: ModelServer;
  beforeAll(async () => {
    resetBreakers();
    server = await startModelServer({ dataset });
  });
  afterAll(() => server.close());

  it('lists stockroom-fake and refuses other models in OpenAI’s error format', async () => {
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['stockroom-fake']);
    const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'gpt-4o', messages: [] }) });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('model_not_found');
  });

  it('through openai-compatible:stockroom-fake, the matrix gives the course table exactly (tokens are the provider’s usage) and equals the in-process fake model', async () => {
    const base = { model: 'openai-compatible:stockroom-fake', modelBaseUrl: server.url };
    const liveModel = liveModelFactory(resolveConfig(base), { env: {} });
    const [live, mock] = await Promise.all([
      runMatrix({ dataset, baseConfig: base, liveModel }),
      runMatrix({ dataset, baseConfig: {} }),
    ]);
    expect(WEAKNESS_FLAGS.length + 1).toBe(MATRIX_SETTINGS.length);
    for (const setting of MATRIX_SETTINGS) {
      const m = live.reports[setting].metrics;
      const row = [m.tool_selection_accuracy, m.answer_correctness, m.termination_match_rate, m.loop_rate, m.must_not_call_ok_rate, m.mean_input_tokens];
      expect({ setting, row }).toEqual({ setting, row: [...COURSE_TABLE[setting]] });
    }
    for (const setting of MATRIX_SETTINGS) {
      const a = live.reports[setting];
      const b = mock.reports[setting];
      expect({ setting, metrics: a.metrics, by_category: a.by_category }).toEqual({ setting, metrics: b.metrics, by_category: b.by_category });
    }
    const row = live.rows[0]!;
    expect(row.config).toMatchObject({ mode: 'live', model: 'openai-compatible:stockroom-fake' });
    expect(row.suite.results.every((r) => r.run.modelId === 'openai-compatible:stockroom-fake')).toBe(true);
  }, 120_000);
});
