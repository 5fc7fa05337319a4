/**
 * `npm run bench -- --only models`: the weakness matrix through the offline model server (the whole
 * live provider path: OpenAI SDK, resilience layer, HTTP, chat mapping both ways) beside the
 * in-process fake model, and that path's overhead per model call. Measures, never asserts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { resolveConfig } from '../harness';
import { runMatrix } from '../eval';
import { defaultDatasetDir, loadDataset } from '../stockroom';
import { SHARED_DATASET_DIR } from '../stockroom/testing/shared-dataset';
import { liveModelFactory } from './create-model-client';
import { costMeterFor } from './prices';
import { startModelServer } from './model-server/server';

export interface ModelsFigure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  detail?: string;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const round = (x: number, d = 2) => Number(x.toFixed(d));

export async function benchModels(repeat = 5): Promise<ModelsFigure[]> {
  const dir = existsSync(path.join(SHARED_DATASET_DIR, 'catalogue.json')) ? SHARED_DATASET_DIR : defaultDatasetDir();
  const label = path.basename(dir) === 'data' ? 'bundled' : path.basename(dir);
  const dataset = loadDataset(dir);
  const server = await startModelServer({ dataset });
  try {
    const base = { model: 'openai-compatible:stockroom-fake', modelBaseUrl: server.url };
    const liveModel = liveModelFactory(resolveConfig(base), { env: {} });
    const costMeter = costMeterFor(resolveConfig(base));
    const time = async (live: boolean) => {
      const t0 = performance.now();
      const m = await runMatrix({ dataset, baseConfig: live ? base : {}, liveModel: live ? liveModel : null, costMeter: live ? costMeter : null });
      const ms = performance.now() - t0;
      const runs = m.rows.reduce((n, r) => n + r.suite.results.length, 0);
      const calls = m.rows.reduce((n, r) => n + r.suite.results.reduce((k, x) => k + x.run.usage.modelCalls, 0), 0);
      return { ms, runs, calls };
    };
    await time(true); // warm-up: JIT, sockets, caches
    await time(false);
    const live: number[] = [];
    const mock: number[] = [];
    let shape = { runs: 0, calls: 0 };
    for (let i = 0; i < repeat; i++) {
      const l = await time(true);
      shape = { runs: l.runs, calls: l.calls };
      live.push(l.ms);
      mock.push((await time(false)).ms);
    }
    const liveMs = median(live);
    const mockMs = median(mock);
    return [
      { name: `matrix through model-server (${label}, ${shape.runs} runs)`, value: round(liveMs / 1000, 3), unit: 's' },
      { name: `matrix in-process fake model (${label}, ${shape.runs} runs)`, value: round(mockMs / 1000, 3), unit: 's' },
      {
        name: 'provider path overhead per model call',
        value: round(((liveMs - mockMs) / shape.calls) * 1000, 0),
        unit: 'µs',
        detail: `${shape.calls} calls; SDK + resilience + HTTP + chat mapping + server-side fake model`,
      },
    ];
  } finally {
    await server.close();
  }
}
